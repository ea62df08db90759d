#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// Makes `mutex` (uninitialised memory) a recursive mutex, never locked.
    static func initializeRecursiveMutex(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        #if canImport(Glibc)
            // glibc's mutex is plain data until first locked: a fresh
            // recursive one is what PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
            // (a macro Swift cannot import) gives, so it is copied from a
            // template made once, instead of setting up attributes and
            // calling pthread_mutex_init for every object.
            mutex.initialize(to: recursiveMutexTemplate.value)
        #else
            // Darwin (Apple's <pthread.h>) and musl: a mutex may hold its own
            // address once used, so each is initialised in place.
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            let status = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "ModelKit: pthread_mutex_init failed (\(status))")
        #endif
    }

    #if canImport(Glibc)
        /// A recursive mutex, initialised and never locked: the bytes every
        /// new storage's lock starts as.
        private static let recursiveMutexTemplate: UncheckedSendable<pthread_mutex_t> = {
            var mutex = pthread_mutex_t()
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            let status = pthread_mutex_init(&mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "ModelKit: pthread_mutex_init failed (\(status))")
            return UncheckedSendable(mutex)
        }()
    #endif
}
