#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// What a rewrite keeps of the file it replaces besides its owner: its
/// permission bits, its access control list and its extended attributes,
/// copied to the temporary file before the rename, so that the new file is
/// open to exactly whom the old one was. Where one cannot be copied, the save
/// fails and the old file stays as it was.
///
/// On Linux the attributes copied are `system.posix_acl_access` (the ACL),
/// `user.*` and `trusted.*` (this one visible to privileged processes only);
/// an ACL that the folder's default ACL gave the temporary file is removed
/// when the old file had none. Security labels (`security.*`, such as
/// SELinux's) are the ones the system gives a new file. On Apple platforms
/// `fcopyfile` copies the ACL and the extended attributes.
extension DurableFile {
    /// Gives the temporary file open as `descriptor` the permission bits
    /// `mode` and the ACL and extended attributes of `name` in the folder.
    /// The temporary file is `temporaryName` in `temporaryFolder`, or in
    /// `folder` when that is nil.
    /// - Throws: ``ModelError`` naming `url` when one cannot be read or kept.
    static func keepAccess(
        of name: String, in folderDescriptor: Int32, folder: String, temporaryName: String, mode: mode_t,
        on descriptor: Int32, url: URL, temporaryFolder: String? = nil
    ) throws {
        let source = openat(folderDescriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        defer { if source >= 0 { close(source) } }
        #if canImport(Darwin)
            guard fchmod(descriptor, mode) == 0 else {
                throw failure(url, "its permissions could not be kept (\(describe(errno)))")
            }
            // Apple's <copyfile.h> (copyfile(3)): `int fcopyfile(int from, int
            // to, copyfile_state_t, copyfile_flags_t)` and `int copyfile(const
            // char *from, const char *to, copyfile_state_t, copyfile_flags_t)`,
            // `copyfile_flags_t` a `uint32_t` (Apple's copyfile(3) manual page).
            let flags = copyfile_flags_t(COPYFILE_ACL | COPYFILE_XATTR)
            // A file that may be written but not read: copied by path.
            let copied =
                source >= 0
                ? fcopyfile(source, descriptor, nil, flags)
                : copyfile(folder + "/" + name, (temporaryFolder ?? folder) + "/" + temporaryName, nil, flags)
            guard copied == 0 else {
                throw failure(url, "its access control list and extended attributes could not be kept (\(describe(errno)))")
            }
        #else
            let path = folder + "/" + name
            guard let calls = ExtendedAttributeCalls.shared else {
                throw failure(url, "its extended attributes could not be kept: this C library offers no calls for them")
            }
            let names = try attributeNames(source: source, path: path, url: url, calls)
            if !names.contains(aclName) {
                // One the folder's default ACL gave the new file: the old file had none.
                if calls.fremovexattr(descriptor, aclName) != 0, errno != ENODATA, errno != ENOTSUP {
                    throw failure(url, "the access control list the folder gives new files could not be removed (\(describe(errno)))")
                }
            }
            guard fchmod(descriptor, mode) == 0 else {
                throw failure(url, "its permissions could not be kept (\(describe(errno)))")
            }
            for attribute in names where attribute == aclName || attribute.hasPrefix("user.") || attribute.hasPrefix("trusted.") {
                let what = attribute == aclName ? "its access control list" : "its extended attribute \(attribute)"
                guard let value = attributeValue(attribute, source: source, path: path, calls) else {
                    if errno == ENODATA { continue }  // removed since it was listed
                    throw failure(url, "\(what) could not be read (\(describe(errno)))")
                }
                let set = value.withUnsafeBytes { calls.fsetxattr(descriptor, attribute, $0.baseAddress, $0.count, 0) }
                guard set == 0 else { throw failure(url, "\(what) could not be kept (\(describe(errno)))") }
            }
        #endif
    }

    #if !canImport(Darwin)
        /// The name of the access ACL among a file's extended attributes.
        private static let aclName = "system.posix_acl_access"

        /// The names of the extended attributes of the old file (through
        /// `source`, or `path` when it could not be opened for reading); none
        /// on a file system without them.
        private static func attributeNames(source: Int32, path: String, url: URL, _ calls: ExtendedAttributeCalls) throws
            -> [String]
        {
            while true {
                let size = source >= 0 ? calls.flistxattr(source, nil, 0) : calls.llistxattr(path, nil, 0)
                if size < 0 {
                    if errno == ENOTSUP { return [] }
                    throw failure(url, "its extended attributes could not be listed (\(describe(errno)))")
                }
                if size == 0 { return [] }
                var buffer = [CChar](repeating: 0, count: size)
                let count = source >= 0 ? calls.flistxattr(source, &buffer, size) : calls.llistxattr(path, &buffer, size)
                if count < 0 {
                    if errno == ERANGE { continue }  // one was added since: again
                    throw failure(url, "its extended attributes could not be listed (\(describe(errno)))")
                }
                return buffer[..<count].split(separator: 0).map {
                    String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
        }

        /// The value of the attribute `name` of the old file, or `nil` (with
        /// `errno` set) when it cannot be read.
        private static func attributeValue(_ name: String, source: Int32, path: String, _ calls: ExtendedAttributeCalls)
            -> [UInt8]?
        {
            while true {
                let size = source >= 0 ? calls.fgetxattr(source, name, nil, 0) : calls.lgetxattr(path, name, nil, 0)
                guard size >= 0 else { return nil }
                var value = [UInt8](repeating: 0, count: size)
                let count = value.withUnsafeMutableBytes {
                    source >= 0
                        ? calls.fgetxattr(source, name, $0.baseAddress, size)
                        : calls.lgetxattr(path, name, $0.baseAddress, size)
                }
                if count < 0 {
                    if errno == ERANGE { continue }  // it grew since: again
                    return nil
                }
                return Array(value[..<count])
            }
        }
    #endif
}

#if !canImport(Darwin)
    /// The C library's extended-attribute calls (`<sys/xattr.h>`, which the
    /// Glibc and Musl modules of Swift do not import), found by name in the
    /// running process; `nil` where it offers none.
    struct ExtendedAttributeCalls {
        typealias List = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
        typealias ListPath = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
        typealias Get = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        typealias GetPath = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        typealias SetValue = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        typealias Remove = @convention(c) (Int32, UnsafePointer<CChar>) -> Int32

        let flistxattr: List
        let llistxattr: ListPath
        let fgetxattr: Get
        let lgetxattr: GetPath
        let fsetxattr: SetValue
        let fremovexattr: Remove

        static let shared: ExtendedAttributeCalls? = {
            func find<Function>(_ name: String, as type: Function.Type) -> Function? {
                guard let symbol = Platform.symbol(named: name) else { return nil }
                return unsafeBitCast(symbol, to: type)
            }
            guard let flistxattr = find("flistxattr", as: List.self),
                let llistxattr = find("llistxattr", as: ListPath.self),
                let fgetxattr = find("fgetxattr", as: Get.self),
                let lgetxattr = find("lgetxattr", as: GetPath.self),
                let fsetxattr = find("fsetxattr", as: SetValue.self),
                let fremovexattr = find("fremovexattr", as: Remove.self)
            else { return nil }
            return ExtendedAttributeCalls(
                flistxattr: flistxattr, llistxattr: llistxattr, fgetxattr: fgetxattr, lgetxattr: lgetxattr,
                fsetxattr: fsetxattr, fremovexattr: fremovexattr)
        }()
    }
#endif
