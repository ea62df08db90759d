import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// `ModelDocument` is `Sendable`: threads edit its live model and save it at
/// once while it watches its file and a second document on the same file
/// saves too. Every edit whose save returned is in the file at the end.
/// Run under ThreadSanitizer by `.ci/run`.
@Suite struct ModelDocumentConcurrencyTests {
    @Test func threadsSavingOneDocumentWhileItWatchesLoseNoEdit() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder) { $0.limit = 10 }
            let document = try openDocument(url)
            let other = try openDocument(url)
            document.startWatching()
            defer { document.stopWatching() }
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 5) { worker in
                let target = worker == 4 ? other : document
                for step in 0..<8 {
                    do {
                        try target.root.setExtensibleProperty(.int(step), forKey: "t\(worker)")
                        if step % 2 == 1 { try target.save() }
                        _ = target.conflicts
                    } catch {
                        failures.withLock { $0.append("thread \(worker), step \(step): \(error)") }
                    }
                }
            }
            try document.save()
            try other.save()
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let saved = try MergeList(contentsOf: url)
            for worker in 0..<5 {
                #expect(saved.extensibleProperty(forKey: "t\(worker)") == .int(7), "thread \(worker)'s last edit")
            }
        }
    }
}
