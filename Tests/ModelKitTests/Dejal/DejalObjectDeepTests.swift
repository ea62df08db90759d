import Foundation
import Testing

@testable import ModelKit

/// Issue 57, item 16: a deep chain of `.dejalObject` models is written (nils
/// left out at every level) and read back on a 512 KiB thread.
@Suite struct DejalObjectDeepTests {
    @Test func aDeepChainIsWrittenOnASmallStack() throws {
        let error = HostilePatchTests.onSmallStack {
            let root = DejalTask()
            var node = root
            for level in 1..<480 {
                let next = DejalTask()
                next.title = "level \(level)"
                node.subtask = next
                node = next
            }
            let json = try root.jsonData()
            let text = String(decoding: json, as: UTF8.self)
            // No nil is written: the last subtask, and every `due`, is left out.
            #expect(!text.contains("null"))
            #expect(text.components(separatedBy: #""representedClassName":"Task""#).count == 481)
            let back = try DejalTask(json: json)
            #expect(back.isEquivalent(to: root))
        }
        #expect(error == nil, "\(String(describing: error))")
    }
}
