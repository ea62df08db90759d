// SCRATCH (issue 56 demonstration): each form of guard the availability check reads.
import Foundation

enum AvailabilityFixture {
    static func unguarded() -> Int {
        let a = InlineArray<2, Int>(repeating: 1)  // flagged on all five
        return a[0]
    }

    static func macOSOnlyGuard() -> Int {
        if #available(macOS 26.0, *) {
            let a = InlineArray<2, Int>(repeating: 2)  // flagged on iOS, tvOS, watchOS, visionOS
            return a[0]
        }
        return 0
    }

    static func guarded() -> Int {
        guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else {
            return 0
        }
        let a = InlineArray<2, Int>(repeating: 3)  // guarded
        return a[0]
    }

    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    static func marked() -> Int {
        let a = InlineArray<2, Int>(repeating: 4)  // guarded
        return a[0]
    }

    static func elseSide() -> Int {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return 5
        } else {
            let a = InlineArray<2, Int>(repeating: 5)  // flagged on all five: the else side is unguarded
            return a[0]
        }
    }

    @available(iOS, unavailable)
    @available(visionOS, unavailable)
    public static func macOSHome() -> URL {
        FileManager.default.homeDirectoryForCurrentUser  // flagged on tvOS and watchOS only
    }

    static func linuxOnly() -> URL {
        #if os(Linux)
            return FileManager.default.homeDirectoryForCurrentUser  // exempt: Apple does not compile it
        #else
            return URL(fileURLWithPath: "/")
        #endif
    }
}
