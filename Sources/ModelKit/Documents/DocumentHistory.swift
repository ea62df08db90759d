import Dispatch
import Foundation

/// Where ``ModelDocument``s keep the versions of their files that they
/// loaded and saved (their *bases*), so that a merge finds the version both
/// sides started from after a relaunch: a conflict copy that a sync service
/// made while the app was not running still merges three ways.
///
/// ```swift
/// let history = DocumentHistory(folder: cacheURL.appendingPathComponent("Bases"))
/// let opened = try ModelDocument<Note>(contentsOf: url, history: history)
/// ```
///
/// **What is kept.** For each document, a folder named by its file name and
/// a hash of its real path (links resolved) holds the document's last
/// ``basesPerDocument`` versions, each the value the file held when it was
/// loaded or saved, as JSON, named by a 128-bit hash of the file's bytes.
/// The document itself is never touched: other tools read its bytes as
/// they were.
///
/// **Where.** ``standard`` is `ModelKit/DocumentBases` in the app's
/// Application Support folder on Apple platforms (in its container when
/// sandboxed), and `<program>/modelkit-document-bases` in
/// `$XDG_STATE_HOME` (else `~/.local/state`) elsewhere;
/// `$MODELKIT_DOCUMENT_HISTORY_DIRECTORY`, when set to an absolute path,
/// places it there instead.
///
/// **How big.** At most ``basesPerDocument`` versions of at most
/// ``documentLimit`` documents: the least recently saved documents'
/// folders go first. The whole is bounded by `basesPerDocument ×
/// documentLimit` files, each the size of one version of its document,
/// and one empty lock file (`.lock`) that writers of the history (threads
/// and processes alike) share, so that none removes a folder another is
/// writing into.
///
/// Versions are written in the background, without syncing, a second after
/// they were handed over (together with the document's other versions of
/// that second; at once when the document is released): the history is a
/// cache, and a version it lost only makes a later merge two ways, or with
/// an older ancestor.
public struct DocumentHistory: Sendable {
    /// The folder that holds each document's folder.
    public var folder: URL
    /// How many versions of each document are kept.
    public var basesPerDocument: Int
    /// How many documents are kept.
    public var documentLimit: Int

    /// A history in `folder` (made when a version is first kept), keeping
    /// at most `basesPerDocument` versions of each of `documentLimit`
    /// documents (each at least 1).
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
        base.documentFolder(for: document)
    }

    private var base: DocumentBaseHistory {
        DocumentBaseHistory(folder: folder, basesPerDocument: basesPerDocument, documentLimit: documentLimit)
    }

    /// How long versions wait before they are kept: the versions of a
    /// document saved within it are written together, in the background,
    /// so a save that syncs is not slowed by the history's writes.
    static var recordingInterval: DispatchTimeInterval { .seconds(1) }

    /// Keeps `versions` of `document` (oldest first), each as its file held
    /// it; a version in no format ModelKit reads is not kept. Call on
    /// ``queue``.
    func record(_ versions: [Data], of document: URL) {
        let base = self.base
        for data in versions { try? base.record(version: data, for: document) }
    }

    /// The kept version of `document` closest to `form` (the fewest values
    /// that differ): the likeliest version both started from. `nil` when
    /// none is kept.
    func closestVersion(to form: ModelValue, of document: URL) -> ModelValue? {
        Self.flush()
        return base.closestAncestor(of: form, for: document)?.form
    }

    /// Waits until every version handed to ``queue`` is kept.
    static func flush() {
        queue.sync {}
    }
}
