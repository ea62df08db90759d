/// Raw values: JSON text written back as it was read, re-spaced and re-ordered
/// only as far as the output options ask.
///
/// Numbers, strings (with their escapes) and literals are copied byte for
/// byte. Whitespace between tokens is dropped and, for pretty output,
/// replaced by the writer's own line breaks and indentation, so a raw value
/// is spaced exactly as the same value written from a ``ModelValue`` would
/// be. With sorted keys, every object inside the value has its members
/// written in the writer's key order (by the bytes of the decoded key).
/// With escaped slashes, a `/` inside a string is written `\/`.
extension JSONWriter {
    /// Writes `raw`, one valid JSON value, as the value of a member or
    /// element that has `depth` containers open around it (the depth that
    /// `startLine(depth:)` takes for its closing bracket).
    mutating func writeRaw(_ raw: UnsafeBufferPointer<UInt8>, depth: Int) {
        // A number, string or literal with no whitespace around it is one
        // token, written as it is whatever the spacing and key order (but a
        // string whose slashes are to be escaped).
        if let first = raw.first, first != JSONByte.openBrace, first != JSONByte.openBracket, first > JSONByte.space,
            raw[raw.count &- 1] > JSONByte.space, !options.escapesSlashes
        {
            append(raw)
            return
        }
        if options.sortedKeys {
            writeRawSorted(raw, depth: depth)
        } else if options.prettyPrinted || options.escapesSlashes {
            writeRawTokens(raw, from: 0, to: raw.count, depth: depth)
        } else {
            writeRawCompact(raw)
        }
    }

    /// Compact output in the input's order: the text without the whitespace
    /// between its tokens.
    ///
    /// The output is never longer than `raw`, so room is made once and bytes
    /// are stored straight into the buffer. Each step looks at one byte
    /// first, the way indented text comes: a string is copied whole up to
    /// its closing quote sixteen bytes at a time (`SIMD16`); whitespace is
    /// skipped, a lone space (after a colon) at once, indentation sixteen
    /// bytes at a time; a bracket, comma or colon that whitespace or a
    /// string follows is copied alone; anything else (numbers, literals,
    /// text that is already compact) sixteen bytes at a time up to the next
    /// quote or whitespace. `raw` is valid JSON, so outside strings every
    /// byte at or below a space is whitespace.
    private mutating func writeRawCompact(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        let target = buffer + count
        let end = raw.count
        let quotes = SIMD16<UInt8>(repeating: JSONByte.quote)
        let spaces = SIMD16<UInt8>(repeating: JSONByte.space)
        let backslashes = SIMD16<UInt8>(repeating: JSONByte.backslash)
        var index = 0
        var written = 0
        while index < end {
            let byte = source[index]
            if byte == JSONByte.quote {
                // A string, copied as it is sixteen bytes at a time up to its
                // closing quote; an escape's two bytes are copied together, so
                // an escaped quote never ends it. A chunk is stored whole even
                // when only its first bytes count: `written` never passes
                // `index`, so the sixteen bytes fit in the room made for `raw`.
                target[written] = byte
                written &+= 1
                index &+= 1
                while true {
                    if index &+ 16 <= end {
                        let chunk = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
                        UnsafeMutableRawPointer(target + written).storeBytes(of: chunk, as: SIMD16<UInt8>.self)
                        // The first set lane (16 when none is), written out at
                        // each of its uses here: the optimiser left a helper for
                        // it out of line, even marked `@inline(__always)`, and
                        // the call cost a tenth of writing.
                        let stopsLanes = (chunk .== quotes) .| (chunk .== backslashes)
                        let stopsMask = unsafeBitCast(
                            SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: stopsLanes), to: SIMD2<UInt64>.self)
                        let stopsLow = UInt64(littleEndian: stopsMask[0])
                        let stopsHigh = UInt64(littleEndian: stopsMask[1])
                        let stops =
                            stopsLow != 0
                            ? stopsLow.trailingZeroBitCount >> 3 : stopsHigh == 0 ? 16 : 8 &+ stopsHigh.trailingZeroBitCount >> 3
                        index &+= stops
                        written &+= stops
                        if stops == 16 { continue }
                    } else {
                        while index < end, source[index] != JSONByte.quote, source[index] != JSONByte.backslash {
                            target[written] = source[index]
                            written &+= 1
                            index &+= 1
                        }
                        guard index < end else { break }
                    }
                    let stop = source[index]
                    target[written] = stop
                    written &+= 1
                    index &+= 1
                    if stop == JSONByte.quote { break }
                    // The escaped byte (valid JSON always has one).
                    target[written] = source[index]
                    written &+= 1
                    index &+= 1
                }
                // A key's colon and the one space after it, as indented text has them.
                if index &+ 2 < end, source[index] == JSONByte.colon {
                    target[written] = JSONByte.colon
                    written &+= 1
                    index &+= 1
                    if source[index] == JSONByte.space, source[index &+ 1] > JSONByte.space { index &+= 1 }
                }
            } else if byte <= JSONByte.space {
                index &+= 1
                // One space, as after a colon, ends here.
                guard index < end, source[index] <= JSONByte.space else { continue }
                while index &+ 16 <= end {
                    let chunk = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
                    let skippedLanes = chunk .> spaces
                    let skippedMask = unsafeBitCast(
                        SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: skippedLanes), to: SIMD2<UInt64>.self)
                    let skippedLow = UInt64(littleEndian: skippedMask[0])
                    let skippedHigh = UInt64(littleEndian: skippedMask[1])
                    let skipped =
                        skippedLow != 0
                        ? skippedLow.trailingZeroBitCount >> 3 : skippedHigh == 0 ? 16 : 8 &+ skippedHigh.trailingZeroBitCount >> 3
                    index &+= skipped
                    if skipped < 16 { break }
                }
                while index < end, source[index] <= JSONByte.space { index &+= 1 }
            } else if index &+ 1 < end, source[index &+ 1] <= JSONByte.space || source[index &+ 1] == JSONByte.quote {
                // One byte before whitespace or a string: a comma, a colon, a
                // bracket (or the last digit of a number).
                target[written] = byte
                written &+= 1
                index &+= 1
            } else {
                // Plain bytes: sixteen at a time while none is a quote or whitespace.
                while index &+ 16 <= end {
                    let chunk = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
                    UnsafeMutableRawPointer(target + written).storeBytes(of: chunk, as: SIMD16<UInt8>.self)
                    let stopsLanes = (chunk .== quotes) .| (chunk .<= spaces)
                    let stopsMask = unsafeBitCast(
                        SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: stopsLanes), to: SIMD2<UInt64>.self)
                    let stopsLow = UInt64(littleEndian: stopsMask[0])
                    let stopsHigh = UInt64(littleEndian: stopsMask[1])
                    let stops =
                        stopsLow != 0
                        ? stopsLow.trailingZeroBitCount >> 3 : stopsHigh == 0 ? 16 : 8 &+ stopsHigh.trailingZeroBitCount >> 3
                    index &+= stops
                    written &+= stops
                    if stops < 16 { break }
                }
                if index &+ 16 > end {
                    // Fewer than sixteen bytes left.
                    while index < end, source[index] > JSONByte.space, source[index] != JSONByte.quote {
                        target[written] = source[index]
                        written &+= 1
                        index &+= 1
                    }
                }
            }
        }
        count &+= written
    }

    /// The tokens from `start` to `end` in their order, spaced as the writer
    /// spaces its own output.
    private mutating func writeRawTokens(_ raw: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, depth: Int) {
        var level = depth
        var index = start
        while index < end {
            let byte = raw[index]
            switch byte {
            case JSONByte.space, JSONByte.tab, JSONByte.lineFeed, JSONByte.carriageReturn:
                index += 1
            case JSONByte.quote:
                let stringEnd = JSONWriter.rawStringEnd(raw, quoteAt: index)
                writeRawString(UnsafeBufferPointer(rebasing: raw[index..<stringEnd]))
                index = stringEnd
            case JSONByte.openBrace, JSONByte.openBracket:
                let close = byte == JSONByte.openBrace ? JSONByte.closeBrace : JSONByte.closeBracket
                var next = index + 1
                while next < end, JSONWriter.isWhitespace(raw[next]) { next += 1 }
                if next < end, raw[next] == close {
                    appendASCII(byte, close)
                    index = next + 1
                } else {
                    append(byte)
                    level += 1
                    startLine(depth: level)
                    index += 1
                }
            case JSONByte.closeBrace, JSONByte.closeBracket:
                level -= 1
                startLine(depth: level)
                append(byte)
                index += 1
            case JSONByte.comma:
                append(JSONByte.comma)
                startLine(depth: level)
                index += 1
            case JSONByte.colon:
                if options.prettyPrinted { appendASCII(JSONByte.colon, JSONByte.space) } else { append(JSONByte.colon) }
                index += 1
            default:
                // A number or a literal: up to the next delimiter.
                let tokenStart = index
                while index < end, !JSONWriter.endsScalar(raw[index]) { index += 1 }
                append(UnsafeBufferPointer(rebasing: raw[tokenStart..<index]))
            }
        }
    }

    /// Writes the string token `token` (quotes included) as it is, or with
    /// its slashes escaped when the options ask.
    private mutating func writeRawString(_ token: UnsafeBufferPointer<UInt8>) {
        guard options.escapesSlashes, token.contains(JSONByte.slash) else {
            append(token)
            return
        }
        var index = 0
        while index < token.count {
            let byte = token[index]
            if byte == JSONByte.backslash {
                // An escape stays as it is (`\/` included).
                append(UnsafeBufferPointer(rebasing: token[index..<(index + 2)]))
                index += 2
            } else if byte == JSONByte.slash {
                appendASCII(JSONByte.backslash, JSONByte.slash)
                index += 1
            } else {
                append(byte)
                index += 1
            }
        }
    }

    // MARK: - Sorted keys

    /// One container of a raw value being written with sorted keys.
    private struct RawFrame {
        let isObject: Bool
        /// Each member's key token (objects) and value, in writing order.
        let members: [RawMember]
        var next: Int
    }

    private struct RawMember {
        var key: Range<Int>
        var value: Range<Int>
    }

    /// The value with every object's members in the writer's key order,
    /// walked with an explicit stack.
    private mutating func writeRawSorted(_ raw: UnsafeBufferPointer<UInt8>, depth: Int) {
        let closes = JSONWriter.matchingCloses(raw)
        var stack: [RawFrame] = []
        var current = JSONWriter.trimmed(raw, 0..<raw.count)
        nextValue: while true {
            let byte = raw[current.lowerBound]
            if byte == JSONByte.openBrace || byte == JSONByte.openBracket {
                let isObject = byte == JSONByte.openBrace
                var members = JSONWriter.rawMembers(raw, open: current.lowerBound, closes: closes, isObject: isObject)
                if members.isEmpty {
                    appendASCII(byte, isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
                } else {
                    if isObject { members = sortedRawMembers(raw, members) }
                    append(byte)
                    stack.append(RawFrame(isObject: isObject, members: members, next: 1))
                    startLine(depth: depth + stack.count)
                    if isObject { writeRawKey(raw, members[0].key) }
                    current = members[0].value
                    continue nextValue
                }
            } else {
                writeRawTokens(raw, from: current.lowerBound, to: current.upperBound, depth: depth + stack.count)
            }

            while let top = stack.last {
                if top.next < top.members.count {
                    let member = top.members[top.next]
                    stack[stack.count - 1].next += 1
                    append(JSONByte.comma)
                    startLine(depth: depth + stack.count)
                    if top.isObject { writeRawKey(raw, member.key) }
                    current = member.value
                    continue nextValue
                }
                stack.removeLast()
                startLine(depth: depth + stack.count)
                append(top.isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
            }
            return
        }
    }

    private mutating func writeRawKey(_ raw: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) {
        writeRawString(UnsafeBufferPointer(rebasing: raw[key]))
        if options.prettyPrinted { appendASCII(JSONByte.colon, JSONByte.space) } else { append(JSONByte.colon) }
    }

    /// `members` ordered as the writer orders keys: by the bytes of each decoded key.
    private func sortedRawMembers(_ raw: UnsafeBufferPointer<UInt8>, _ members: [RawMember]) -> [RawMember] {
        let keys = members.map { JSONWriter.decodedKey(raw, $0.key) }
        let order = members.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        return order.map { members[$0] }
    }

    /// The text of the key token at `range`, escapes decoded.
    private static func decodedKey(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let token = UnsafeBufferPointer(rebasing: raw[range])
        if !token.contains(JSONByte.backslash) {
            return String(decoding: UnsafeBufferPointer(rebasing: token.dropFirst().dropLast()), as: UTF8.self)
        }
        var reader = JSONReader(token, options: JSONReadingOptions())
        return (try? reader.readString()) ?? ""
    }

    /// The members (or elements) of the container whose bracket is at `open`.
    private static func rawMembers(
        _ raw: UnsafeBufferPointer<UInt8>, open: Int, closes: [Int: Int], isObject: Bool
    ) -> [RawMember] {
        let close = closes[open] ?? open
        var members: [RawMember] = []
        var index = skipWhitespace(raw, from: open + 1)
        while index < close {
            var key = index..<index
            if isObject {
                let keyEnd = rawStringEnd(raw, quoteAt: index)
                key = index..<keyEnd
                index = skipWhitespace(raw, from: keyEnd) + 1  // past the colon
                index = skipWhitespace(raw, from: index)
            }
            let valueEnd = rawValueEnd(raw, at: index, closes: closes)
            members.append(RawMember(key: key, value: index..<valueEnd))
            index = skipWhitespace(raw, from: valueEnd)
            if index < close, raw[index] == JSONByte.comma { index = skipWhitespace(raw, from: index + 1) }
        }
        return members
    }

    /// The end of the value starting at `index`.
    private static func rawValueEnd(_ raw: UnsafeBufferPointer<UInt8>, at index: Int, closes: [Int: Int]) -> Int {
        switch raw[index] {
        case JSONByte.openBrace, JSONByte.openBracket: return (closes[index] ?? index) + 1
        case JSONByte.quote: return rawStringEnd(raw, quoteAt: index)
        default:
            var end = index
            while end < raw.count, !endsScalar(raw[end]) { end += 1 }
            return end
        }
    }

    /// The position of each bracket's partner, by the opening bracket's position.
    private static func matchingCloses(_ raw: UnsafeBufferPointer<UInt8>) -> [Int: Int] {
        var closes: [Int: Int] = [:]
        var open: [Int] = []
        var index = 0
        while index < raw.count {
            switch raw[index] {
            case JSONByte.quote:
                index = rawStringEnd(raw, quoteAt: index)
                continue
            case JSONByte.openBrace, JSONByte.openBracket:
                open.append(index)
            case JSONByte.closeBrace, JSONByte.closeBracket:
                if let start = open.popLast() { closes[start] = index }
            default:
                break
            }
            index += 1
        }
        return closes
    }

    // MARK: - Tokens

    /// The index after the closing quote of the string whose opening quote
    /// is at `quoteAt`, found eight bytes at a time.
    @inline(__always)
    static func rawStringEnd(_ raw: UnsafeBufferPointer<UInt8>, quoteAt: Int) -> Int {
        var index = quoteAt + 1
        while true {
            while index + 8 <= raw.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(raw.baseAddress! + index).loadUnaligned(as: UInt64.self))
                let special = JSONByte.specialBytes(in: word, slashes: false)
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            while index < raw.count, raw[index] != JSONByte.quote, raw[index] != JSONByte.backslash { index += 1 }
            guard index < raw.count else { return raw.count }
            if raw[index] == JSONByte.quote { return index + 1 }
            index += 2  // an escape: the byte after the backslash is never the closing quote
        }
    }

    private static func skipWhitespace(_ raw: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        while index < raw.count, isWhitespace(raw[index]) { index += 1 }
        return index
    }

    private static func trimmed(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(raw[lower]) { lower += 1 }
        while upper > lower, isWhitespace(raw[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == JSONByte.space || byte == JSONByte.lineFeed || byte == JSONByte.carriageReturn || byte == JSONByte.tab
    }

    /// Whether `byte` ends a number or a literal.
    @inline(__always)
    private static func endsScalar(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == JSONByte.comma || byte == JSONByte.closeBrace || byte == JSONByte.closeBracket
            || byte == JSONByte.colon
    }
}
