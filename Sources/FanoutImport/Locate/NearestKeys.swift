import FanoutCore
import FanoutJSON

/// Where a pattern that matched nothing stops matching an export, for the warning that says so: the deepest
/// prefix of the pattern the tree has, and the keys at the level where the next segment is not found
/// (`"members/{user}" reaches "members/u1", whose keys are "name", "photo"`), rather than the top-level keys.
///
/// It reads the export again, but only when a relation matched nothing: literal segments skip to their key,
/// captures try a few children each, so the probe reads at most the parts of the tree the pattern's prefix
/// reaches.
struct NearestKeys {
    /// The deepest node reached: its path and the keys it holds (the first few), and how many it holds.
    struct Stop: Equatable {
        var path: [String]
        var keys: [String]
        var total: Int
        /// How many segments of the pattern matched.
        var depth: Int
    }

    let segments: [PathPattern.Segment]
    /// Children of a capture tried before giving up on finding a deeper match below it.
    static let triedChildren = 20
    /// Keys kept for the message.
    static let shownKeys = 10

    /// Where `pattern` stops in the JSON tree `buffer`; nil when the tree cannot be read or the pattern matches.
    static func stop(of pattern: PathPattern, in buffer: UnsafeRawBufferPointer) -> Stop? {
        var reader = JSONReader(buffer)
        let probe = NearestKeys(segments: pattern.segments)
        var path: [String] = []
        guard let stop = try? probe.walk(&reader, depth: 0, path: &path), stop.depth < pattern.segments.count
        else { return nil }
        return stop
    }

    /// Follows the segments from `depth` in the value at the reader, consuming it whole.
    private func walk(_ reader: inout JSONReader, depth: Int, path: inout [String]) throws(JSONSyntaxError) -> Stop {
        guard depth < segments.count, try reader.peekKind() == .object else {
            try reader.skipValue()
            return Stop(path: path, keys: [], total: 0, depth: depth)
        }
        var here = Stop(path: path, keys: [], total: 0, depth: depth)
        var best: Stop?
        var tried = 0
        try reader.beginObject()
        while let key = try reader.nextKeyString() {
            here.total += 1
            if here.keys.count < Self.shownKeys, !key.hasPrefix(".") { here.keys.append(key) }
            let follows: Bool
            switch segments[depth] {
            case .literal(let text): follows = key == text && best == nil
            case .capture: follows = tried < Self.triedChildren && best.map { $0.depth < segments.count } ?? true
            }
            guard follows else {
                try reader.skipValue()
                continue
            }
            tried += 1
            path.append(key)
            let below = try walk(&reader, depth: depth + 1, path: &path)
            path.removeLast()
            if best == nil || below.depth > best!.depth { best = below }
        }
        return best ?? here
    }
}

extension NearestKeys.Stop {
    /// What the warning says the export has instead: `"members/{user}" reaches "members/u1", whose keys are "name",
    /// "photo"`; at the top, the top-level keys.
    func described(_ pattern: PathPattern) -> String {
        let list = LayoutDetector.keyList(keys, total: total)
        let missing = next(pattern.segments[depth])
        guard depth > 0 else { return "the export has no top-level \(missing); its top-level keys are \(list)" }
        let keys = total == 0 ? "which has no keys" : "whose keys are \(list)"
        let prefix = PathPattern(segments: Array(pattern.segments.prefix(depth)))
        return "\"\(prefix)\" reaches \"\(path.joined(separator: "/"))\", \(keys), but no \(missing)"
    }

    /// The segment the export lacks, in words: `key "profile" (did you mean "profiles"?)`, `child`.
    private func next(_ segment: PathPattern.Segment) -> String {
        switch segment {
        case .literal(let text): "key \"\(text)\"" + Suggestion.didYouMean(text, among: keys)
        case .capture(let name): "child to capture as {\(name)}"
        }
    }
}
