import Foundation

/// The key conversions of `.convertFromSnakeCase` and `.convertToSnakeCase`,
/// giving the keys Foundation's coders give.
enum SnakeCase {
    /// `"foo_bar"` → `"fooBar"`. Underscores before the first and after the
    /// last other character stay; a key with no inner underscore is
    /// unchanged; otherwise the first word is lowercased and each later
    /// word capitalised (`"a_u_r_l"` → `"aURL"`, `"a_url"` → `"aUrl"`).
    static func camelCased(_ key: String) -> String {
        guard let firstLetter = key.firstIndex(where: { $0 != "_" }) else { return key }
        let lastLetter = key.lastIndex(where: { $0 != "_" })!
        let middle = key[firstLetter...lastLetter]
        let words = middle.split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<firstLetter])
        result += words[0].lowercased()
        for word in words.dropFirst() { result += word.capitalized }
        result += key[key.index(after: lastLetter)...]
        return result
    }

    /// `"fooBar"` → `"foo_bar"`, splitting words as Foundation does: from the
    /// second character on, each uppercase letter starts a word; a run of
    /// capitals followed by a lowercase letter keeps its last capital for
    /// the next word (`"myURLProperty"` → `"my_url_property"`); words are
    /// lowercased and joined with `_`. Letters are found by Unicode scalar,
    /// but steps are by `Character`, so a combining mark stays with its
    /// letter (`"aB\u{301}c"` → `"a_b\u{301}c"`).
    static func snakeCased(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        // Where each Character starts, by scalar offset; the end counts as one.
        var isBoundary = [Bool](repeating: false, count: scalars.count + 1)
        var offset = 0
        for character in key {
            isBoundary[offset] = true
            offset += character.unicodeScalars.count
        }
        isBoundary[scalars.count] = true
        /// The start of the Character after the one `index` is in.
        func characterAfter(_ index: Int) -> Int {
            var next = index + 1
            while next < scalars.count, !isBoundary[next] { next += 1 }
            return min(next, scalars.count)
        }
        /// The start of the Character before the one `index` is in.
        func characterBefore(_ index: Int) -> Int {
            var start = index
            while start > 0, !isBoundary[start] { start -= 1 }
            guard start > 0 else { return 0 }
            start -= 1
            while start > 0, !isBoundary[start] { start -= 1 }
            return start
        }
        func isUpper(_ index: Int) -> Bool { CharacterSet.uppercaseLetters.contains(scalars[index]) }
        func isLower(_ index: Int) -> Bool { CharacterSet.lowercaseLetters.contains(scalars[index]) }
        var words: [Range<Int>] = []
        var wordStart = 0
        var search = characterAfter(0)
        while let upper = (search..<scalars.count).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<scalars.count).first(where: isLower) else {
                wordStart = upper
                search = scalars.count
                break
            }
            if lower == characterAfter(upper) {
                wordStart = upper
            } else {
                let beforeLower = characterBefore(lower)
                words.append(upper..<max(upper, beforeLower))
                wordStart = beforeLower
            }
            search = lower + 1
        }
        words.append(wordStart..<scalars.count)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }
}
