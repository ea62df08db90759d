import Foundation
import Synchronization
import Testing

@testable import ModelKit

@Suite struct ModelDocumentWatchingTests {
    @Test func anotherProcessSaveReachesTheLiveModelKeepingUnsavedEditsAsOneUndoStep() async throws {
        try await withTemporaryFolder { folder in
            let url = try ModelDocumentProcessTests.startBoard(in: folder)
            let document = try ModelDocument<WatchedBoard>(
                contentsOf: url, history: DocumentHistory(folder: folder.appendingPathComponent("history")))
            let history = ModelHistory(tracking: document.root)
            let merges = Mutex<[DocumentMerge]>([])
            document.addObserver { merge in merges.withLock { $0.append(merge) } }
            document.startWatching()
            defer { document.stopWatching() }
            #expect(document.isWatching)
            document.root.note = "unsaved"  // ours, not saved

            let worker = try FileWorker.start(["document-loop", url.path, "7", "0.3", "5"])
            let output = worker.finish()
            let report = try #require(ModelDocumentProcessTests.Report(lastOf: output), "\(output)")
            let arrived = await eventually(within: 3) {
                document.root.extensibleProperty(forKey: "w7") == .int(report.counter)
            }
            #expect(arrived, "the worker's save reached the live model")
            // The observers are told just after the model changes.
            #expect(await eventually(within: 3) { history.stepCounts.undo == 1 + merges.withLock { $0.count } })
            #expect(document.root.note == "unsaved" && document.root.hasChanges)
            #expect(merges.withLock { $0.allSatisfy { $0.source == .watching && $0.hadCommonAncestor } })
            #expect(!merges.withLock { $0.isEmpty })
            // The watch merged without saving: the file has no "note".
            #expect(try !String(contentsOf: url, encoding: .utf8).contains("unsaved"))

            // Each merge is one step; undoing them all takes the worker's edits
            // out and leaves ours.
            let steps = history.stepCounts.undo
            #expect(steps == 1 + merges.withLock { $0.count })
            for _ in 1..<steps { try history.undo() }
            #expect(document.root.extensibleProperty(forKey: "w7") == nil)
            #expect(document.root.note == "unsaved")

            // Our next save keeps both.
            try history.redo()
            try document.save()
            let saved = try String(contentsOf: url, encoding: .utf8)
            #expect(saved.contains("unsaved"))
        }
    }

    /// The way to wait for a merge in progress, as `Demo watch` ends: after
    /// `stopWatching()` and a sync of the watching queue, nothing there holds
    /// the document, so letting it go here releases it here (and keeps its
    /// last versions), before a process that ends next.
    @Test func afterStopWatchingAndASyncOfItsQueueNothingHoldsTheDocument() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let queue = DispatchQueue(label: "ModelDocumentWatchingTests.queue")
            let merged = DispatchSemaphore(value: 0)
            weak var released: ModelDocument<MergeList>?
            do {
                let document = try openDocument(url)
                released = document
                let token = document.addObserver { _ in merged.signal() }
                document.startWatching(queue: queue)
                try editElsewhere(url) { $0.limit = 8 }
                #expect(merged.wait(timeout: .now() + 5) == .success, "the change was merged")
                document.stopWatching()
                queue.sync {}
                document.removeObserver(token)
                #expect(document.root.limit == 8)
            }
            #expect(released == nil)
            // Its versions were kept as it was released: both, the loaded and the merged.
            let history = DocumentHistory(folder: folder.appendingPathComponent("history"))
            let kept = try FileManager.default.contentsOfDirectory(atPath: history.folder(for: url).path)
            #expect(kept.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count == 2, "\(kept)")
        }
    }

    @Test func aHalfWrittenVersionIsNotMergedUntilItLoads() async throws {
        try await withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            let merges = Mutex(0)
            document.addObserver { _ in merges.withLock { $0 += 1 } }
            document.startWatching()
            defer { document.stopWatching() }
            let whole = try Data(contentsOf: url)
            let edited = try MergeList(contentsOf: url)
            edited.limit = 8
            let next = try edited.jsonData()
            // Written in place, as a text editor would: first a half, then the rest.
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: next.prefix(next.count / 2))
            try await Task.sleep(for: .milliseconds(600))
            #expect(merges.withLock { $0 } == 0, "a version that does not load is not merged")
            #expect(document.root.limit == 4)
            #expect(document.watchingError == nil)
            try handle.write(contentsOf: next.dropFirst(next.count / 2))
            try handle.close()
            // The observers are told after the model changed: waited for both.
            #expect(await eventually(within: 3) { document.root.limit == 8 && merges.withLock { $0 } == 1 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(merges.withLock { $0 } == 1, "one merge, of the whole version")
            #expect(whole != next)
        }
    }

    @Test func theMergesSequenceYieldsEachMerge() async throws {
        try await withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            document.root.name = "Ours"
            document.startWatching()
            defer { document.stopWatching() }
            let stream = document.merges()
            try editElsewhere(url) { $0.name = "Theirs" }
            var iterator = stream.makeAsyncIterator()
            let merge = try #require(await iterator.next())
            #expect(merge.source == .watching)
            #expect(merge.conflicts.map(\.path.description) == ["name"])
            #expect(merge.description == "merged from watching: 1 conflict")
            #expect(document.root.name == "Ours")
            #expect(document.conflicts == merge.conflicts)
        }
    }

    @Test func aDeletedFileWhileWatchingIsReportedAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            document.startWatching()
            defer { document.stopWatching() }
            try FileManager.default.removeItem(at: url)
            #expect(await eventually(within: 3) { document.watchingError?.code == .fileNotFound })
            #expect(document.root.name == "Groceries")
        }
    }
}

/// The board the `FileWorker` document loop edits, with a key of our own.
final class WatchedBoard: ModelObject, @unchecked Sendable {
    override class var typeName: String { "Board" }
    @Saved var title = ""
    @Saved var cards: [WatchedCard] = []
    @Saved var note = ""
}

final class WatchedCard: ModelObject, @unchecked Sendable {
    override class var typeName: String { "Card" }
    @Saved var id = ""
    @Saved var title = ""
    override class var identityKey: String? { "id" }
}
