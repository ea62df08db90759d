import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// The stack guard's measurements: the running thread's stack bounds, and
/// frame addresses that lie on that stack and fall as calls nest, also under
/// AddressSanitizer, whose fake frames put locals on the heap.
@Suite struct ThreadStackTests {
    /// The bounds and the frame address on a thread with a stack of `stackSize` bytes.
    static func measured(stackSize: Int) -> (bounds: (low: UInt, high: UInt)?, frame: UInt) {
        let result = Mutex<((low: UInt, high: UInt)?, UInt)>((nil, 0))
        DeepGraphTests.onThread(stackSize: stackSize) {
            let bounds = ThreadStack.currentBounds()
            let frame = ThreadStack.frameAddress()
            result.withLock { $0 = (bounds, frame) }
        }
        return result.withLock { $0 }
    }

    @Test(arguments: [512 << 10, 4 << 20])
    func aThreadsBoundsAreTheStackItWasGiven(stackSize: Int) throws {
        let (bounds, frame) = Self.measured(stackSize: stackSize)
        let stack = try #require(bounds)
        let size = Int(stack.high - stack.low)
        // The system keeps a guard page and thread-local storage from the
        // stack it was asked for, and may give a larger one: glibc reuses a
        // cached stack of up to four times the size with its guard, such as
        // a continuing thread's that the stack guard has just let go.
        #expect(size > stackSize - (64 << 10), "\(size)")
        #expect(size < 5 * stackSize, "\(size)")
        #expect(frame > stack.low && frame < stack.high)
        // Only the thread's start lies above the first frame of its body.
        #expect(stack.high - frame < 64 << 10)
    }

    @Test func theFrameAddressLiesOnThisThreadsStack() throws {
        let stack = try #require(ThreadStack.currentBounds())
        let frame = ThreadStack.frameAddress()
        #expect(frame > stack.low && frame < stack.high)
    }

    /// Frame addresses `levels` calls deep, outermost first.
    @inline(never)
    static func frames(levels: Int) -> [UInt] {
        let here = ThreadStack.frameAddress()
        return levels == 0 ? [here] : [here] + frames(levels: levels - 1)
    }

    @Test func nestedCallsHaveLowerFrames() {
        let frames = Self.frames(levels: 20)
        for (outer, inner) in zip(frames, frames.dropFirst()) {
            #expect(inner < outer)
        }
    }
}
