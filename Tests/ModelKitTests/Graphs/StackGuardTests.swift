import Foundation
import Testing

@testable import ModelKit

/// The stack guard decides from the stack a level really uses and the
/// stack this thread really has left, not from a fixed estimate.
@Suite struct StackGuardTests {
    /// Calls itself, a kilobyte of stack at a time, until the thread has
    /// less than `room` bytes of stack left, then runs `body` there.
    @inline(never)
    static func descend(leaving room: UInt, _ body: () -> Void) {
        guard let stack = ThreadStack.currentBounds() else { return body() }
        let frame = ThreadStack.frameAddress()
        if frame - stack.low <= room { return body() }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
            buffer.initialize(repeating: 0)
            descend(leaving: room, body)
        }
    }

    @Test func aLevelIsMeasuredAndTheReserveFollowsIt() {
        DeepGraphTests.onThread {
            let root = DeepGraphTests.chain(300)
            defer { DeepGraphTests.release(root) }
            #expect((try? root.jsonData()) != nil)
            _ = root.modelValue
        }
        let size = StackGuard.levelSize
        #expect(size > 0 && size <= StackGuard.largestLevelSize)
        #expect(StackGuard.reserve == StackGuard.reserveFloor + StackGuard.reservedLevels * size)
        // A continuing thread always has room for its first levels.
        #expect(StackGuard.reserve < UInt(StackGuard.continuationStackSize) / 4)
    }

    /// A caller that has used most of its stack before it writes still gets
    /// the deepest chain written and read: the guard looks at what is left,
    /// not at what the levels alone have used. Left: the levels that run
    /// unchecked (twice over, for the direct JSON paths' doubled count) and
    /// the reserve.
    @Test(arguments: DeepGraphTests.formats)
    func aThreadWithLittleStackLeftStillWritesTheDeepestChain(format: String) {
        DeepGraphTests.onThread(stackSize: 4 << 20) {
            // Measures a level first, so that the room left follows it.
            let root = DeepGraphTests.chain(100)
            defer { DeepGraphTests.release(root) }
            _ = try? DeepGraphTests.read(DeepGraphTests.write(root, as: format), as: format)
            let room = StackGuard.reserve + UInt(4 * StackGuard.uncheckedLevels) * StackGuard.levelSize
            Self.descend(leaving: room) {
                DeepGraphTests.roundTripDeepestChain(format: format)
            }
        }
    }
}
