import FanoutCore
import FanoutJSON

/// What a row looks like, for the warning about a declaration whose pattern reaches rows that hold nothing it reads
/// (`"users/ann/posts/a" holds the string "p1"`, `"pins/x" has the fields "note", "board"`): the remedy the
/// warning suggests then fits the data, rather than the export's top-level keys.
///
/// Like ``NearestKeys`` it reads the export again only for a declaration that matched nothing, following literal
/// segments to their key and trying a few children of each capture.
struct RowShape: Equatable {
    /// The first row the pattern reaches.
    var path: [String]
    /// What the row holds: its kind, and a scalar's JSON text (shortened) or an object's first keys.
    var kind: JSONValueKind
    var scalar: String?
    var keys: [String] = []
    var total = 0

    /// Longest scalar quoted whole.
    static let shownScalar = 40

    /// The first row `pattern` reaches in the JSON tree `buffer`; nil when it reaches none or the tree cannot be read.
    static func first(of pattern: PathPattern, in buffer: UnsafeRawBufferPointer) -> RowShape? {
        var reader = JSONReader(buffer)
        var path: [String] = []
        return try? find(pattern.segments[...], &reader, &path)
    }

    private static func find(
        _ segments: ArraySlice<PathPattern.Segment>, _ reader: inout JSONReader, _ path: inout [String]
    ) throws(JSONSyntaxError) -> RowShape? {
        guard let segment = segments.first else { return try shape(&reader, path) }
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            return nil
        }
        var found: RowShape?
        var tried = 0
        try reader.beginObject()
        while let key = try reader.nextKeyString() {
            let follows: Bool
            switch segment {
            case .literal(let text): follows = found == nil && key == text
            case .capture: follows = found == nil && tried < NearestKeys.triedChildren
            }
            guard follows else {
                try reader.skipValue()
                continue
            }
            tried += 1
            path.append(key)
            found = try find(segments.dropFirst(), &reader, &path)
            path.removeLast()
        }
        return found
    }

    private static func shape(_ reader: inout JSONReader, _ path: [String]) throws(JSONSyntaxError) -> RowShape {
        let kind = try reader.peekKind()
        var row = RowShape(path: path, kind: kind)
        switch kind {
        case .object:
            try reader.beginObject()
            while let key = try reader.nextKeyString() {
                row.total += 1
                if row.keys.count < NearestKeys.shownKeys { row.keys.append(key) }
                try reader.skipValue()
            }
        case .string:
            let text = try reader.readString()
            row.scalar = JSONWriter.quoted(text.count > shownScalar ? text.prefix(shownScalar) + "…" : text)
        case .number: row.scalar = JSONWriter.formatted(try reader.readNumber())
        case .bool: row.scalar = try reader.readBool() ? "true" : "false"
        case .null:
            try reader.readNull()
            row.scalar = "null"
        case .array: try reader.skipValue()
        }
        return row
    }

    /// `"users/ann/posts/a" holds the string "p1", not an object with the field postId`, or `… has the fields
    /// "note", "board", but no boardid (did you mean "board"?)`; `fields` are those the declaration reads.
    func described(reading fields: [String]) -> String {
        let row = "\"\(path.joined(separator: "/"))\""
        let wanted = fields.count == 1 ? "the field \(fields[0])" : "the fields \(fields.joined(separator: ", "))"
        switch kind {
        case .object:
            guard total > 0 else { return "it reaches \(row), which is empty" }
            let missing = fields.first { field in !keys.contains(String(field.split(separator: "/")[0])) }
            let hint = missing.map { Suggestion.didYouMean($0, among: keys) } ?? ""
            return "it reaches \(row), which has the fields \(LayoutDetector.keyList(keys, total: total)) but not "
                + "\(missing ?? wanted)\(hint)"
        case .array: return "it reaches \(row), which holds an array, not an object with \(wanted)"
        default:
            return "it reaches \(row), which holds the \(kind.noun) \(scalar ?? ""), not an object with \(wanted)"
        }
    }
}

extension JSONValueKind {
    /// The kind in a sentence: `string`, `number`.
    fileprivate var noun: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "value"
        }
    }
}
