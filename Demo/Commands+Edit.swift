import Dispatch
import Foundation
import ModelKit

extension Commands {
    // MARK: - edit

    /// `edit FILE KEY=VALUE...`: the assignments applied to the document's
    /// live model, then saved through a ``ModelDocument``, which merges with
    /// whatever changed the file since it was read (`delay` seconds of
    /// waiting in between, to let another program change it).
    static func edit(_ url: URL, typed: String, _ assignments: [Assignment], prefer: MergePolicy, delay: Double) throws {
        let read = try Document.read(.file(url, typed: typed))
        guard let type = read.knownClass else {
            throw Failure(
                "\(typed): edit opens documents of a class the Demo knows (\(DemoModels.names)); "
                    + "'Demo set' changes any document")
        }
        switch type {
        case is Todo.Type: try edit(Todo.self, url, typed: typed, assignments, prefer: prefer, delay: delay)
        default: try edit(Note.self, url, typed: typed, assignments, prefer: prefer, delay: delay)
        }
    }

    private static func edit<Root: ModelObject>(
        _ type: Root.Type, _ url: URL, typed: String, _ assignments: [Assignment], prefer: MergePolicy, delay: Double
    ) throws {
        let document = try ModelDocument<Root>(contentsOf: url, policy: prefer)
        var changed = Set<String>()
        for assignment in assignments {
            let before = document.root.modelValue
            try assignment.apply(to: document.root)
            if document.root.modelValue != before { changed.insert(assignment.path) }
        }
        if delay > 0 { usleep(UInt32(min(delay, 3600) * 1_000_000)) }
        let merges = MergeLog()
        document.addObserver { merges.append($0) }
        let conflicts = try document.save()
        print("saved \(typed): changed \(changed.isEmpty ? "nothing" : changed.sorted().joined(separator: ", "))")
        if !merges.isEmpty {
            print("merged with the changes saved meanwhile: \(describe(conflicts))")
            for conflict in conflicts { print("  conflict (settled by \(name(of: prefer))): \(conflict)") }
        }
    }

    // MARK: - watch

    /// `watch FILE`: prints each merge of another program's save into the
    /// document's live model as it lands, until interrupted, or after
    /// `count` merges.
    static func watch(_ url: URL, typed: String, count: Int?) throws {
        let read = try Document.read(.file(url, typed: typed))
        guard let type = read.knownClass else {
            throw Failure("\(typed): watch opens documents of a class the Demo knows (\(DemoModels.names))")
        }
        switch type {
        case is Todo.Type: try watch(Todo.self, url, typed: typed, count: count)
        default: try watch(Note.self, url, typed: typed, count: count)
        }
    }

    private static func watch<Root: ModelObject>(_ type: Root.Type, _ url: URL, typed: String, count: Int?) throws {
        let document = try ModelDocument<Root>(contentsOf: url)
        let done = DispatchSemaphore(value: 0)
        let previous = LockedValue(document.root.modelValue)
        let seen = LockedValue(0)
        // The observer holds the document; removed before returning, so
        // that the document is released.
        let token = document.addObserver { merge in
            // Runs on the watch's queue, after the merge.
            let now = document.root.modelValue
            let patch = JSONPatch.difference(from: previous.swap(now), to: now)
            var lines = ["\(typed): \(merge)"]
            if case .array(let operations) = patch.modelValue {
                for operation in operations { lines.append("  " + ((try? operation.jsonString()) ?? "\(operation)")) }
            }
            for conflict in merge.conflicts { lines.append("  conflict (ours kept): \(conflict)") }
            emit(lines.joined(separator: "\n"))
            if let count, seen.update({ $0 += 1; return $0 }) >= count { done.signal() }
        }
        let queue = DispatchQueue(label: "Demo.watch")
        document.startWatching(queue: queue)
        emit("watching \(typed) (\(Root.typeName)); each change saved by another program is merged and printed")
        done.wait()
        document.stopWatching()
        // The merge that signalled may still be ending on the queue, holding
        // the document: waited for, so that the document is released here,
        // on this thread, before the process ends (its last versions kept).
        queue.sync {}
        document.removeObserver(token)
    }

    /// Writes a line to standard output at once (`print` buffers when the
    /// output is a pipe).
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func describe(_ conflicts: [MergeConflict]) -> String {
        switch conflicts.count {
        case 0: "no conflicts"
        case 1: "1 conflict"
        default: "\(conflicts.count) conflicts"
        }
    }
}

/// The merges a document announced, from any thread.
final class MergeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var merges: [DocumentMerge] = []

    func append(_ merge: DocumentMerge) { lock.withLock { merges.append(merge) } }
    var isEmpty: Bool { lock.withLock { merges.isEmpty } }
}

/// A value shared with a callback on another thread.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Stores `new`, returning the value it replaced.
    func swap(_ new: Value) -> Value {
        lock.withLock {
            defer { value = new }
            return value
        }
    }

    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
