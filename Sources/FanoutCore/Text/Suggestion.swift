/// "Did you mean …?" for a name that is not one of the known ones: a misspelled rule id, preset or subcommand.
///
/// The nearest known name by edit distance (insertions, deletions, substitutions and swaps of neighbours, case
/// ignored), if it is close enough to be a typo rather than another word: at most a third of the longer name's
/// length, and at most 3 edits. Ties go to the name listed first.
package enum Suggestion {
    /// The known name `name` is probably a misspelling of, or nil.
    package static func nearest(to name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let other = Array(candidate.lowercased().unicodeScalars)
            let limit = min(3, max(1, max(typed.count, other.count) / 3))
            let d = distance(typed, other)
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// ` (did you mean "x"?)`, to follow the unknown name in a message, or empty.
    package static func didYouMean(_ name: String, among known: [String]) -> String {
        nearest(to: name, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// The optimal string alignment distance: Levenshtein plus transpositions of adjacent characters.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
