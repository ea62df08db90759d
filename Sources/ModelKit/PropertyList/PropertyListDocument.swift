import Foundation

/// Safety checks around Foundation's binary property-list reader, which
/// recurses once per level of nesting and so must never see a document
/// nested deeper than a stack can hold. XML property lists never reach
/// Foundation: ``XMLPropertyListReader`` reads them.
enum PropertyListDocument {
    static let binaryMagic = Array("bplist".utf8)

    static func isBinary(_ data: Data) -> Bool { data.starts(with: binaryMagic) }

    static func parse(_ data: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// Foundation's message, without its boilerplate.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }

    /// Throws when the binary property list `data` is damaged in a way that
    /// would mislead Foundation's reader, or nests deeper than `limit`.
    static func checkBinary(_ data: Data, limit: Int) throws {
        try data.withUnsafeBytes { raw in
            try checkBinary(raw.bindMemory(to: UInt8.self), limit: limit)
        }
    }

    /// Walks the object graph of a binary property list without recursion,
    /// measuring its depth and rejecting references that loop.
    private static func checkBinary(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws {
        func malformed(_ message: String) -> ModelError {
            ModelError.malformed("property list", message, at: nil)
        }
        let count = bytes.count
        guard count >= 8 + 32 else { throw malformed("the binary property list is truncated") }
        func read(_ offset: Int, size: Int) -> Int? {
            guard size > 0, size <= 8, offset >= 0, offset + size <= count else { return nil }
            var value = 0
            for index in 0..<size { value = value << 8 | Int(bytes[offset + index]) }
            return value < 0 ? nil : value
        }
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard let objectCount = read(trailer + 8, size: 8), let top = read(trailer + 16, size: 8),
            let tableOffset = read(trailer + 24, size: 8),
            (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            objectCount > 0, objectCount <= count, top < objectCount,
            tableOffset.multipliedReportingOverflow(by: 1).overflow == false,
            tableOffset + objectCount * offsetSize <= trailer
        else { throw malformed("the binary property list's trailer is damaged") }

        func objectOffset(_ reference: Int) -> Int? {
            guard reference < objectCount else { return nil }
            return read(tableOffset + reference * offsetSize, size: offsetSize)
        }
        /// The references an array, set or dictionary holds.
        func children(of reference: Int) throws -> [Int] {
            guard let offset = objectOffset(reference), offset < trailer else {
                throw malformed("the binary property list refers to an object outside the document")
            }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return [] }
            var length = Int(marker & 0x0F)
            var start = offset + 1
            if length == 0x0F {
                guard start < count, bytes[start] >> 4 == 0x1 else {
                    throw malformed("the binary property list has a damaged collection length")
                }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard let extended = read(start + 1, size: size) else {
                    throw malformed("the binary property list has a damaged collection length")
                }
                length = extended
                start += 1 + size
            }
            let references = kind == 0xD ? length * 2 : length
            guard references <= objectCount * 2, start + references * referenceSize <= trailer else {
                throw malformed("the binary property list has a collection that runs past the document")
            }
            return (0..<references).compactMap { read(start + $0 * referenceSize, size: referenceSize) }
        }

        // Depth-first, iteratively; a reference to an object on the current
        // path is a loop, which Foundation's reader would follow forever.
        var onPath = [Bool](repeating: false, count: objectCount)
        var depthOf = [Int](repeating: -1, count: objectCount)
        var stack: [(reference: Int, children: [Int], next: Int)] = []
        stack.append((top, try children(of: top), 0))
        onPath[top] = true
        while !stack.isEmpty {
            let last = stack.count - 1
            if stack[last].next == stack[last].children.count {
                onPath[stack[last].reference] = false
                depthOf[stack[last].reference] = stack.count
                stack.removeLast()
                continue
            }
            let child = stack[last].children[stack[last].next]
            stack[last].next += 1
            guard child < objectCount else {
                throw malformed("the binary property list refers to object \(child), past its \(objectCount) objects")
            }
            if onPath[child] { throw malformed("the binary property list contains a collection that contains itself") }
            // Already explored from this depth or deeper: nothing below it can go deeper now.
            if depthOf[child] >= stack.count + 1 { continue }
            if stack.count + 1 > limit {
                throw ModelError(
                    code: .nestingTooDeep, message: "nesting is deeper than the limit of \(limit) levels",
                    format: "property list")
            }
            onPath[child] = true
            stack.append((child, try children(of: child), 0))
        }
    }
}
