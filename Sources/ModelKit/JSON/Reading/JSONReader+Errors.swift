/// Error reporting: where the reader is, as a location and a key path.
extension JSONReader {
    /// A ``ModelError`` for a grammar violation at byte `offset`, naming what
    /// stands there.
    ///
    /// The key path names the containers open at the failure. With
    /// `includingCurrentMember`, it also names the element or member being
    /// read, for failures inside a value (`children[1].name`); without it, it
    /// stops at the innermost container, for failures between members
    /// (`children[1]` for a missing comma).
    func error(_ expected: String, at offset: Int, includingCurrentMember: Bool = false) -> ModelError {
        ModelError.malformed(
            "JSON", expected + ", found " + describeByte(at: offset), at: location(of: offset),
            keyPath: keyPath(includingCurrentMember: includingCurrentMember))
    }

    /// A ``ModelError`` with code ``ModelError/Code/invalidUTF8`` for the byte sequence starting at `offset`.
    func invalidUTF8Error(at offset: Int) -> ModelError {
        ModelError(
            code: .invalidUTF8,
            message: "invalid UTF-8 (byte 0x\(hex(base[offset]))) in string",
            keyPath: keyPath(includingCurrentMember: true), location: location(of: offset), format: "JSON")
    }

    /// A ``ModelError`` for a string problem that is not about what follows, such as a bad escape.
    func stringError(_ message: String, at offset: Int) -> ModelError {
        ModelError.malformed("JSON", message, at: location(of: offset), keyPath: keyPath(includingCurrentMember: true))
    }

    /// A ``ModelError`` for an object that repeats `key`, whose second
    /// occurrence starts at `offset`; the object is the top frame.
    func duplicateKeyError(_ key: String, at offset: Int) -> ModelError {
        ModelError.malformed(
            "JSON", "duplicate key \(ModelValue.quoted(key)) in object", at: location(of: offset),
            keyPath: keyPath(includingCurrentMember: false))
    }

    func location(of offset: Int) -> ModelError.Location {
        ModelError.Location(byteOffset: offset, in: UnsafeBufferPointer(start: base, count: count))
    }

    /// The path from the root to where the reader is.
    func keyPath(includingCurrentMember: Bool) -> ModelKeyPath {
        var components: [ModelKeyPath.Component] = []
        components.reserveCapacity(frames.count)
        var largeArray = 0
        for level in 0..<frames.count {
            let frame = frames[level]
            let isTop = level == frames.count - 1
            if isTop && !includingCurrentMember { break }
            let valueEnd = isTop ? values.count : frames[level + 1].valueStart
            var completed = valueEnd - frame.valueStart
            // A large array's elements are in its own array, not on the value stack.
            if frame.isLarge {
                completed = largeArrays[largeArray].count
                largeArray += 1
            }
            if frame.isObject, frame.predictedCount > 0 {
                if frame.matched > completed { components.append(.key(predictedKey(of: frame))) }
            } else if frame.isObject {
                let keyEnd = isTop ? keys.count : frames[level + 1].keyStart
                // The member's key is there once it has been read, and its value is not yet complete.
                if keyEnd - frame.keyStart > completed { components.append(.key(keys[keyEnd - 1])) }
            } else {
                components.append(.index(completed))
            }
        }
        return ModelKeyPath(components)
    }

    /// What stands at `offset`, for "found …": `'}'`, `end of input`, `U+0007`.
    func describeByte(at offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let byte = base[offset]
        switch byte {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "' '"
        case 0x00..<0x20, 0x7F: return "U+00\(hex(byte))"
        default:
            if let length = validUTF8Length(at: offset) {
                let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
                return "'\(text)'"
            }
            return "invalid UTF-8 byte 0x\(hex(byte))"
        }
    }

    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
