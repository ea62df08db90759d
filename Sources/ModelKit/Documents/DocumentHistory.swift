import Dispatch
import Foundation

/// Where ``ModelDocument``s keep the versions of their files that they
/// loaded and saved (their *bases*), so that a merge finds the version both
/// sides started from after a relaunch: a conflict copy that a sync service
/// made while the app was not running still merges three ways.
///
/// ```swift
/// let history = DocumentHistory(folder: cachesFolder.appendingPathComponent("Bases"))
/// let document = try ModelDocument<Note>(contentsOf: url, history: history)
/// ```
///
/// **What is kept.** For each document, a folder named by its path (links
/// resolved) holds the document's last ``basesPerDocument`` versions, each
/// the file's bytes as they were loaded or saved, named by a hash of those
/// bytes. The document itself is never touched: other tools read its bytes
/// as they were.
///
/// **Where.** ``standard`` is `ModelKit/DocumentBases` in the app's
/// Application Support folder on Apple platforms (in its container when
/// sandboxed), and `<program>/modelkit-document-bases` in
/// `$XDG_STATE_HOME` (else `~/.local/state`) elsewhere.
///
/// **How big.** At most ``basesPerDocument`` versions of at most
/// ``documentLimit`` documents: the least recently saved documents'
/// folders go first. The whole is bounded by `basesPerDocument ×
/// documentLimit` files, each the size of one version of its document.
///
/// Versions are written in the background, without syncing: the history is
/// a cache, and a version it lost only makes a later merge two ways.
public struct DocumentHistory: Sendable {
    /// The folder that holds each document's folder.
    public var folder: URL
    /// How many versions of each document are kept.
    public var basesPerDocument: Int
    /// How many documents are kept.
    public var documentLimit: Int

    public init(folder: URL, basesPerDocument: Int = 8, documentLimit: Int = 64) {
        self.folder = folder
        self.basesPerDocument = max(basesPerDocument, 1)
        self.documentLimit = max(documentLimit, 1)
    }

    /// The history in this app's standard place, described above.
    public static var standard: DocumentHistory {
        DocumentHistory(folder: DocumentBaseHistory.standardFolder(.current))
    }

    /// The writes of every history, one after another.
    static let queue = DispatchQueue(label: "ModelKit.DocumentHistory", qos: .utility)

    /// The folder of `document`'s versions.
    func folder(for document: URL) -> URL {
        DocumentBaseHistory(folder: folder).documentFolder(for: document)
    }

    /// Keeps `data`, a version of `document`, in the background.
    func remember(_ data: Data, of document: URL) {
        let history = DocumentBaseHistory(
            folder: folder, basesPerDocument: basesPerDocument, documentLimit: documentLimit)
        Self.queue.async { try? history.record(data, for: document) }
    }

    /// The kept versions of `document`, newest first (versions that cannot
    /// be read are left out).
    func versions(of document: URL) -> [(hash: ContentHash, data: Data)] {
        Self.flush()
        return DocumentBaseHistory(folder: folder).versions(for: document)
    }

    /// Waits for every version handed to ``remember(_:of:)`` to be written.
    static func flush() {
        queue.sync {}
    }
}
