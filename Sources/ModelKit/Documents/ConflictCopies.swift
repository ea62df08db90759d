#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A copy of a document that a sync service left beside it when two
/// devices changed the document at once.
struct ConflictCopy: Hashable, Sendable {
    /// The services whose copies are recognised by name.
    enum Service: String, Hashable, Sendable {
        /// Dropbox: `notes (Alice's conflicted copy 2026-12-07).json`.
        case dropbox
        /// Syncthing: `notes.sync-conflict-20261207-101500-ABCDEFG.json`.
        case syncthing
        /// The Nextcloud and ownCloud desktop clients:
        /// `notes (conflicted copy 2026-12-07 101500).json`, and older
        /// ownCloud clients' `notes_conflict-20261207-101500.json`.
        case nextcloud
    }

    /// The copy's file.
    var url: URL
    /// The service whose naming the copy's name follows.
    var service: Service
    /// The device or user the name names, when it names one: Dropbox's
    /// owner (`Alice`), Syncthing's short device ID (`ABCDEFG`), the
    /// Nextcloud or ownCloud user.
    var device: String?
    /// The date, or date and time, as the name spells it
    /// (`2026-12-07`, `20261207-101500`, `2026-12-07 101500`), when it has one.
    var dateText: String?
}

/// Finds the conflict copies that sync services leave beside a document.
///
/// Sync services do not merge: when two devices change a file before
/// hearing of each other, one version keeps the name and the other is saved
/// beside it under a name that says so. ``matching(documentName:among:namesMatch:)``
/// recognises those names (a pure function, tested by tables), and
/// ``beside(_:)`` lists the document's folder with it.
///
/// Each service's form, with where it was confirmed:
/// - **Dropbox**: ` (<owner>'s conflicted copy <yyyy-MM-dd>)` before the
///   extension ("appended with 'conflicted copy,' the name of the person or
///   computer responsible, and the date": Dropbox Help, "What's a conflicted
///   copy?", https://www.dropbox.com/help/syncing-uploads/conflicted-copy;
///   multi-dot names keep the last extension after the tag, as in
///   `shopping history.xlsx (DESKTOP-UMS014A's conflicted copy 2019-04-24).7z`,
///   github.com/stefankueng/CryptSync issue #22). A second copy of the same
///   day is numbered, ` (1)`, inside the tag or after it. Names without an
///   owner or a date, as older clients and some apps wrote them
///   (github.com/dtjm/textdropapp.com issue #62), are accepted too.
/// - **Syncthing**: `<name without extension>.sync-conflict-<yyyyMMdd>-<HHmmss>-<device>`
///   followed by the extension, the device being the first seven characters
///   of the device ID (`conflictName` in github.com/syncthing/syncthing
///   `lib/model/folder_sendrecv.go`: `name[:len(name)-len(ext)] +
///   time.Now().Format(".sync-conflict-20060102-150405-") + lastModBy + ext`,
///   `ext` being Go's `filepath.Ext`, the text from the last dot, even a
///   leading one; `lib/protocol/encryption.go` matches the device part as
///   seven characters). Releases before the device was added wrote no
///   device part (`<filename>.sync-conflict-<date>-<time>.<ext>`, Syncthing's
///   FAQ as quoted in https://news.ycombinator.com/item?id=10042901).
/// - **Nextcloud and ownCloud desktop clients** (since 2.5): ` (conflicted
///   copy [<user> ]<yyyy-MM-dd> <HHmmss>)` before the extension, the user's
///   parentheses replaced by `_`, and the whole name taken as the stem when
///   its only dot leads it (`Utility::makeConflictFileName` and
///   `isConflictFile` in github.com/nextcloud/desktop and
///   github.com/owncloud/client `src/common/utility.cpp`; the switch from
///   the old tag in github.com/owncloud/client pull request #6417; the form
///   `mydata (conflicted copy 2025-04-10 093612).txt` in ownCloud's manual,
///   https://doc.owncloud.com/desktop/next/conflicts.html).
/// - **Older ownCloud (and early Nextcloud) clients**: `_conflict-<yyyyMMdd>-<HHmmss>`
///   before the extension, or `_conflict_<user>-<yyyyMMdd>-<HHmmss>` when
///   `CSYNC_CONFLICT_FILE_USERNAME` was set (`makeConflictFileName` in
///   github.com/owncloud/client `src/libsync/filesystem.cpp` and
///   `propagatedownload.cpp` before 2.5; `test_conflic-20130308-145326` in
///   github.com/owncloud/client issue #413).
///
/// Dates and times must be real (months 1 to 12, hours below 24 and so on),
/// so `notes (conflicted copy policy).json` is a note of its own.
/// ModelKit's temporary files and a copy of a copy (whose original is not
/// the document) are never taken. iCloud Drive keeps its conflicts as
/// `NSFileVersion`s, not as names; Apple platforms ask for those separately.
enum ConflictCopies {
    /// What a conflict copy's name says.
    struct Name: Hashable, Sendable {
        /// The copy's file name.
        var name: String
        var service: ConflictCopy.Service
        var device: String?
        var dateText: String?
        /// The date and time named, as `yyyyMMddHHmmss` (a missing time is
        /// midnight), or empty when the name has no date: sorts oldest first.
        var sortKey: String
    }

    /// The names among `names` that are conflict copies of the document
    /// named `documentName`, with what each name says, oldest named date
    /// first (then by the names' bytes), so the order is the same on every
    /// run.
    /// - Parameters:
    ///   - documentName: the document's file name.
    ///   - names: the names in its folder.
    ///   - namesMatch: how the folder's file system compares names: on a
    ///     case-insensitive volume, `NOTES (Bo's conflicted copy 2026-12-07).JSON`
    ///     is a copy of `notes.json`; on APFS, a name in NFD is one in NFC.
    static func matching(
        documentName: String, among names: [String], namesMatch: Platform.FileNameMatching = .exactBytes
    ) -> [Name] {
        var found: [Name] = []
        lazy var grammar = ConflictNameGrammar()  // made once, and only when a name may need it
        for name in names where !isTemporaryFile(name) {
            // Every tag says "conflict" in ASCII: other names cost one scan.
            guard name.utf8.firstRange(of: "conflict".utf8) != nil else { continue }
            if let parsed = parse(name, documentName: documentName, namesMatch: namesMatch, grammar: grammar) {
                found.append(parsed)
            }
        }
        return found.sorted { a, b in
            a.sortKey != b.sortKey ? a.sortKey < b.sortKey : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
    }

    /// Lists the folder of `document` and returns the conflict copies of it
    /// there (regular files, or links to them), oldest named date first.
    /// - Throws: ``ModelError`` naming the document when its folder cannot
    ///   be read.
    static func beside(_ document: URL) throws -> [ConflictCopy] {
        try DurableFile.requireFileURL(document)
        let document = document.standardizedFileURL
        let folder = document.deletingLastPathComponent()
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFile.folderFailure(document, folder: folder.path, code: errno) }
        defer { close(descriptor) }
        let namesMatch = Platform.fileNameMatching(ofFolder: descriptor)
        let names = DurableFile.entries(of: descriptor)
        return matching(documentName: document.lastPathComponent, among: names, namesMatch: namesMatch)
            .filter { isRegularFile($0.name, in: descriptor) }
            .map {
                ConflictCopy(
                    url: folder.appendingPathComponent($0.name, isDirectory: false), service: $0.service,
                    device: $0.device, dateText: $0.dateText)
            }
    }

    // MARK: - Names

    private static func isRegularFile(_ name: String, in folder: Int32) -> Bool {
        var status = stat()
        return fstatat(folder, name, &status, 0) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// A temporary file of ModelKit's writer (`.<name>.modelkit-<pid>-<random>.tmp`).
    private static func isTemporaryFile(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(DurableFile.TemporaryName.suffix)
            && name.contains(DurableFile.TemporaryName.marker)
    }

    /// What `name` says, when it is a conflict copy of `documentName`.
    private static func parse(
        _ name: String, documentName: String, namesMatch: Platform.FileNameMatching, grammar: ConflictNameGrammar
    ) -> Name? {
        // The extension the service put back after its tag: none, or the
        // text from the name's last dot.
        var extensions: [Substring] = [name[name.endIndex...]]
        if let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex {
            extensions.append(name[dot...])
        }
        for ext in extensions {
            let body = name[..<ext.startIndex]
            for service in Pattern.allCases {
                guard let tag = service.read(body, grammar) else { continue }
                let original = String(tag.stem) + ext
                guard service.extensionRule(original) == ext.utf8.count,
                    namesMatch.remainder(of: original, after: documentName)?.isEmpty == true
                else { continue }
                return Name(
                    name: name, service: service.service, device: tag.device, dateText: tag.dateText,
                    sortKey: tag.sortKey)
            }
        }
        return nil
    }

    /// What a tag says, once read.
    private struct Tag {
        var stem: Substring
        var device: String?
        var dateText: String?
        var sortKey: String
    }

    /// The forms recognised, tried in this order.
    private enum Pattern: CaseIterable {
        case syncthing, nextcloud, dropbox, ownCloudBefore25

        var service: ConflictCopy.Service {
            switch self {
            case .syncthing: .syncthing
            case .dropbox: .dropbox
            case .nextcloud, .ownCloudBefore25: .nextcloud
            }
        }

        /// How long the extension the service keeps after its tag is, in
        /// UTF-8 bytes, for an original named `name`.
        func extensionRule(_ name: String) -> Int {
            let utf8 = name.utf8
            guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return 0 }
            // Go's `filepath.Ext` takes a leading dot too; the desktop
            // clients take a name whose only dot leads it as all stem.
            if self != .syncthing, dot == utf8.startIndex { return 0 }
            return utf8.distance(from: dot, to: utf8.endIndex)
        }

        /// The stem and what the tag says, when `body` ends with this tag.
        func read(_ body: Substring, _ grammar: ConflictNameGrammar) -> Tag? {
            switch self {
            case .syncthing:
                // <stem>.sync-conflict-20261207-101500[-ABCDEFG]
                guard let match = body.wholeMatch(of: grammar.syncthing),
                    let key = sortKey(date: match.output.date, time: match.output.time)
                else { return nil }
                return Tag(
                    stem: match.output.stem, device: match.output.device.map(String.init),
                    dateText: "\(match.output.date)-\(match.output.time)", sortKey: key)
            case .nextcloud:
                // <stem> (conflicted copy [user ]2026-12-07 101500)
                guard let match = body.wholeMatch(of: grammar.nextcloud),
                    let key = sortKey(date: match.output.date, time: match.output.time)
                else { return nil }
                return Tag(
                    stem: match.output.stem, device: match.output.user.map(String.init),
                    dateText: "\(match.output.date) \(match.output.time)", sortKey: key)
            case .dropbox:
                // <stem> ([owner's ]conflicted copy[ 2026-12-07][ (1)])[ (1)]
                guard let match = body.wholeMatch(of: grammar.dropbox) else { return nil }
                var key = ""
                if let date = match.output.date {
                    guard let dated = sortKey(date: date, time: nil) else { return nil }
                    key = dated
                }
                return Tag(
                    stem: match.output.stem, device: match.output.owner.map(String.init),
                    dateText: match.output.date.map(String.init), sortKey: key)
            case .ownCloudBefore25:
                // <stem>_conflict-20261207-101500, <stem>_conflict_user-20261207-101500
                guard let match = body.wholeMatch(of: grammar.ownCloudBefore25),
                    let key = sortKey(date: match.output.date, time: match.output.time)
                else { return nil }
                return Tag(
                    stem: match.output.stem, device: match.output.user.map(String.init),
                    dateText: "\(match.output.date)-\(match.output.time)", sortKey: key)
            }
        }

        /// `yyyyMMddHHmmss` from a date (`yyyyMMdd` or `yyyy-MM-dd`) and a
        /// time (`HHmmss`), or nil when either is no real date or time.
        private func sortKey(date: Substring, time: Substring?) -> String? {
            let digits = date.filter { $0 != "-" }
            let clock = time.map(String.init) ?? "000000"
            func number(_ text: String, _ from: Int, _ length: Int) -> Int {
                Int(text.dropFirst(from).prefix(length)) ?? -1
            }
            let day = String(digits)
            let (month, dayOfMonth) = (number(day, 4, 2), number(day, 6, 2))
            let (hour, minute, second) = (number(clock, 0, 2), number(clock, 2, 2), number(clock, 4, 2))
            guard (1...12).contains(month), (1...31).contains(dayOfMonth), (0...23).contains(hour),
                (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            return day + clock
        }
    }
}

/// The tags' grammar, made once per listing (a `Regex` is not `Sendable`,
/// so it cannot be a shared constant). Matched by Unicode scalars, so that
/// a combining mark never joins a tag's first character to the stem.
private struct ConflictNameGrammar {
    let syncthing =
        #/(?<stem>.*)\.sync-conflict-(?<date>[0-9]{8})-(?<time>[0-9]{6})(?:-(?<device>[A-Z0-9]{7}))?/#
        .matchingSemantics(.unicodeScalar)
    let nextcloud =
        #/(?<stem>.+) \(conflicted copy (?:(?<user>[^()]+) )?(?<date>[0-9]{4}-[0-9]{2}-[0-9]{2}) (?<time>[0-9]{6})\)/#
        .matchingSemantics(.unicodeScalar)
    let dropbox =
        #/(?<stem>.+) \((?:(?<owner>.+)['’]s )?conflicted copy(?: (?<date>[0-9]{4}-[0-9]{2}-[0-9]{2}))?(?: \([0-9]+\))?\)(?: \([0-9]+\))?/#
        .matchingSemantics(.unicodeScalar)
    let ownCloudBefore25 =
        #/(?<stem>.+)_conflict(?:-|_(?<user>.+)-)(?<date>[0-9]{8})-(?<time>[0-9]{6})/#
        .matchingSemantics(.unicodeScalar)
}
