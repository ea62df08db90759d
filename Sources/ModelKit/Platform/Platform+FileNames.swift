#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

extension Platform {
    /// How a folder's file system tells two names apart.
    enum FileNameMatching: Sendable, Hashable {
        /// Byte for byte (Linux's usual file systems).
        case exactBytes
        /// By canonical equivalence: `é` as one scalar or as `e` and a
        /// combining accent is one name (APFS and HFS+, case-sensitive).
        case canonical
        /// By canonical equivalence and ignoring case: `Notes.json` is
        /// `notes.json` (APFS and HFS+ as macOS formats them; ext4 and
        /// f2fs folders with case folding on).
        case canonicalIgnoringCase

        /// Whether `name` starts with `prefix` as this file system compares
        /// names; returns the rest of `name` (as folded) when it does.
        func remainder(of name: String, after prefix: String) -> Substring.UTF8View? {
            switch self {
            case .exactBytes:
                guard name.utf8.starts(with: prefix.utf8) else { return nil }
                return Substring(name).utf8.dropFirst(prefix.utf8.count)
            case .canonical, .canonicalIgnoringCase:
                let folded = fold(name)
                let foldedPrefix = fold(prefix)
                guard folded.utf8.starts(with: foldedPrefix.utf8) else { return nil }
                return Substring(folded).utf8.dropFirst(foldedPrefix.utf8.count)
            }
        }

        /// One spelling for every name this file system takes for the same.
        private func fold(_ name: String) -> String {
            let cased = self == .canonicalIgnoringCase ? name.lowercased() : name
            return cased.precomposedStringWithCanonicalMapping
        }
    }

    /// How the file system of the folder open as `descriptor` compares names.
    static func fileNameMatching(ofFolder descriptor: Int32) -> FileNameMatching {
        #if canImport(Darwin)
            // Apple's <unistd.h>: `_PC_CASE_SENSITIVE` (11), answered by
            // `long fpathconf(int, int)` with 1 on a case-sensitive volume and
            // 0 on a case-insensitive one (pathconf(2) on Apple platforms).
            // Names on APFS and HFS+ compare by canonical equivalence either way.
            return fpathconf(descriptor, _PC_CASE_SENSITIVE) == 0 ? .canonicalIgnoringCase : .canonical
        #else
            // Linux: a folder with case folding on (ext4, f2fs) carries
            // FS_CASEFOLD_FL (0x40000000) among the flags that
            // FS_IOC_GETFLAGS (<linux/fs.h>: _IOR('f', 1, long), a macro Swift
            // cannot import) reads; its names compare folded and normalized.
            var flags = 0
            let request = UInt(0x8000_0000) | UInt(MemoryLayout<Int>.size) << 16 | UInt(UInt8(ascii: "f")) << 8 | 1
            guard ioctl(descriptor, request, &flags) == 0 else { return .exactBytes }
            return flags & 0x4000_0000 != 0 ? .canonicalIgnoringCase : .exactBytes
        #endif
    }
}
