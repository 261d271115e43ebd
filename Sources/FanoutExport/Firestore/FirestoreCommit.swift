import FanoutCore
import FanoutImport
import FanoutJSON

/// A repair patch as Firestore writes: the body of the REST API's `documents:commit` request (which the Admin
/// SDK's batched writes also send), and the same writes applied to the export's documents (the repaired emulator
/// folder).
///
/// Each patch path is placed by the documents the export has: a path that is a document (or lies where documents
/// of that collection are, `users/*/followers/*`) is written as a document — deleted for `null`, created with an
/// object's fields, or empty for an edge value (a document edge is its existence) — and any other path is a field
/// of its nearest document, written with an `updateMask` (a field in the mask but not in `fields` is deleted; a
/// missing document is created, as a Realtime Database write creates the nodes above it).
/// Inside an array field (an edge stored as an array of IDs, read as index keys) an entry is an array transform:
/// `removeAllFromArray` of the element the index held, `appendMissingElements` of the value (also for an index
/// under a field the document lacks: a list's first elements). A value copied onto a field that holds a timestamp
/// or a reference is written as that type.
public struct FirestoreCommit: Sendable {
    /// One write.
    public enum Write: Sendable, Equatable {
        case delete(document: [String])
        /// The document replaced by these fields (created when missing).
        case set(document: [String], fields: [FirestoreField])
        /// The fields at these paths set (nil: deleted), the rest of the document kept.
        case update(document: [String], fields: [(path: [String], value: FirestoreValue?)])
        /// An array field's elements removed or appended.
        case transform(document: [String], field: [String], append: Bool, values: [FirestoreValue])

        public static func == (a: Write, b: Write) -> Bool {
            switch (a, b) {
            case (.delete(let x), .delete(let y)): x == y
            case (.set(let x, let f), .set(let y, let g)): x == y && f == g
            case (.update(let x, let f), .update(let y, let g)):
                x == y && f.count == g.count && zip(f, g).allSatisfy { $0.path == $1.path && $0.value == $1.value }
            case (.transform(let x, let f, let p, let v), .transform(let y, let g, let q, let w)):
                x == y && f == g && p == q && v == w
            default: false
            }
        }
    }

    public let writes: [Write]
    /// The project the documents' names carry.
    public let project: String

    /// The writes that apply `patch` to `documents`.
    public init(_ patch: RepairPatch, documents: [FirestoreDocument], project: String) {
        self.project = project
        var byPath: [[String]: Int] = [:]
        var shapes = Set<[String]>()
        for (i, document) in documents.enumerated() {
            byPath[document.segments] = i
            shapes.insert(Self.shape(document.segments))
        }
        var writes: [Write] = []
        // Field updates of one document go into one write, in patch order.
        var updates: [[String]: Int] = [:]
        for entry in patch.entries {
            let segments = entry.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let documentLength = Self.documentLength(segments, byPath: byPath, shapes: shapes)
            let document = Array(segments.prefix(documentLength))
            let field = Array(segments.dropFirst(documentLength))
            if field.isEmpty {
                if entry.value.isNull {
                    writes.append(.delete(document: document))
                } else {
                    let fields = entry.value.objectMembers.map { members in
                        members.map { FirestoreField(name: $0.key, value: Self.value($0.value, like: nil)) }
                    }
                    writes.append(.set(document: document, fields: fields ?? []))
                }
                continue
            }
            let stored = byPath[document].map { documents[$0].fields } ?? []
            // An entry of an array field (an edge stored as an array of IDs, read as index keys) is an array
            // transform; so is a list's first element under a field the document lacks, which appending makes.
            let added = field.count == 2 && !entry.value.isNull ? Int(field[1]) : nil
            if field.count == 2, let elements = Self.elements(of: field[0], in: stored, adding: added) {
                if entry.value.isNull {
                    if let index = Int(field[1]), elements.indices.contains(index) {
                        writes.append(
                            .transform(document: document, field: [field[0]], append: false, values: [elements[index]]))
                    }
                } else {
                    writes.append(
                        .transform(
                            document: document, field: [field[0]], append: true,
                            values: [Self.value(entry.value, like: nil)]))
                }
                continue
            }
            let value = entry.value.isNull ? nil : Self.value(entry.value, like: Self.find(field[...], in: stored))
            if let index = updates[document], case .update(let doc, var fields) = writes[index] {
                fields.append((field, value))
                writes[index] = .update(document: doc, fields: fields)
            } else {
                updates[document] = writes.count
                writes.append(.update(document: document, fields: [(field, value)]))
            }
        }
        self.writes = writes
    }

    /// `users/*/followers/*`: a document path with its IDs left out.
    private static func shape(_ segments: [String]) -> [String] {
        segments.enumerated().map { $0.offset % 2 == 0 ? $0.element : "*" }
    }

    /// How many leading segments of a patch path name its document: the path itself when it is a document or
    /// where documents of that shape are; else the longest prefix that is a document; else the longest even prefix
    /// whose shape documents have; else the first two.
    private static func documentLength(_ segments: [String], byPath: [[String]: Int], shapes: Set<[String]>) -> Int {
        let even = segments.count - segments.count % 2
        if segments.count % 2 == 0, byPath[segments] != nil || shapes.contains(shape(segments)) {
            return segments.count
        }
        for length in stride(from: even, through: 2, by: -2) where byPath[Array(segments.prefix(length))] != nil {
            return length
        }
        for length in stride(from: even, through: 2, by: -2)
        where shapes.contains(shape(Array(segments.prefix(length)))) {
            return length
        }
        return min(2, segments.count)
    }

    /// The value at a field path inside a document's fields, through maps.
    private static func find(_ path: ArraySlice<String>, in fields: [FirestoreField]) -> FirestoreValue? {
        guard let name = path.first, let value = fields.last(where: { $0.name == name })?.value else { return nil }
        if path.count == 1 { return value }
        if case .map(let inner) = value { return find(path.dropFirst(), in: inner) }
        return nil
    }

    /// A patch value as a Firestore value, of the type the field held (a timestamp or reference) where the
    /// export's tree wrote that type as a string.
    static func value(_ json: JSONValue, like stored: FirestoreValue?) -> FirestoreValue {
        switch (json, stored) {
        case (.string(let text), .timestamp?):
            if let seconds = ISO8601Seconds.microseconds(text) { return .timestamp(microseconds: seconds) }
            return .string(text)
        case (.string(let text), .reference?): return .reference(text)
        case (.null, _): return .null
        case (.bool(let b), _): return .boolean(b)
        case (.string(let s), _): return .string(s)
        case (.number(let n), _):
            if let exact = n.int64 { return .integer(exact) }
            return .double(n.double)
        case (.array(let elements), _): return .array(elements.map { value($0, like: nil) })
        case (.object(let members), _):
            return .map(members.map { FirestoreField(name: $0.key, value: value($0.value, like: nil)) })
        }
    }

    // MARK: The request body

    /// `{"writes": [...]}`, as `POST https://firestore.googleapis.com/v1/projects/P/databases/(default)/documents:commit`
    /// takes it.
    public func render() -> String {
        let base = "projects/\(project)/databases/(default)/documents/"
        func name(_ document: [String]) -> JSONValue { .string(base + document.joined(separator: "/")) }
        let items: [JSONValue] = writes.map { write in
            switch write {
            case .delete(let document):
                return .object([("delete", name(document))])
            case .set(let document, let fields):
                return .object([("update", .object([("name", name(document)), ("fields", Self.rest(fields))]))])
            case .update(let document, let fields):
                var tree: [FirestoreField] = []
                for (path, value) in fields {
                    if let value { tree = Self.setting(path[...], to: value, in: tree) }
                }
                return .object([
                    ("update", .object([("name", name(document)), ("fields", Self.rest(tree))])),
                    ("updateMask", .object([("fieldPaths", .array(fields.map { .string(Self.fieldPath($0.path)) }))])),
                ])
            case .transform(let document, let field, let append, let values):
                return .object([
                    (
                        "transform",
                        .object([
                            ("document", name(document)),
                            (
                                "fieldTransforms",
                                .array([
                                    .object([
                                        ("fieldPath", .string(Self.fieldPath(field))),
                                        (
                                            append ? "appendMissingElements" : "removeAllFromArray",
                                            .object([("values", .array(values.map { Self.rest($0, base: base) }))])
                                        ),
                                    ])
                                ])
                            ),
                        ])
                    )
                ])
            }
        }
        return JSONWriter(pretty: true, sortKeys: false).write(.object([("writes", .array(items))])) + "\n"
    }

    /// The elements of the array field `name`; none (an empty array) when the document lacks the field and an
    /// element is added at an integer index; nil when the field is no array.
    private static func elements(of name: String, in fields: [FirestoreField], adding index: Int?) -> [FirestoreValue]?
    {
        guard let field = fields.first(where: { $0.name == name }) else { return index == nil ? nil : [] }
        guard case .array(let elements) = field.value else { return nil }
        return elements
    }

    private static func setting(_ path: ArraySlice<String>, to value: FirestoreValue, in fields: [FirestoreField])
        -> [FirestoreField]
    {
        guard let name = path.first else { return fields }
        var fields = fields
        if path.count == 1 {
            fields.removeAll { $0.name == name }
            fields.append(FirestoreField(name: name, value: value))
            return fields
        }
        var inner: [FirestoreField] = []
        if let index = fields.firstIndex(where: { $0.name == name }), case .map(let existing) = fields[index].value {
            inner = existing
            fields.remove(at: index)
        }
        fields.append(FirestoreField(name: name, value: .map(setting(path.dropFirst(), to: value, in: inner))))
        return fields
    }

    /// A field path as Firestore's masks write it: segments that are not plain identifiers in backquotes.
    static func fieldPath(_ segments: [String]) -> String {
        segments.map { segment in
            let plain =
                segment.utf8.first.map { !(48...57).contains($0) } ?? false
                && segment.utf8.allSatisfy {
                    ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95
                }
            if plain { return segment }
            return "`" + segment.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`")
                + "`"
        }.joined(separator: ".")
    }

    private static func rest(_ fields: [FirestoreField], base: String = "") -> JSONValue {
        .object(fields.map { ($0.name, rest($0.value, base: base)) })
    }

    /// A value in the REST API's form (`{"integerValue": "5"}`).
    static func rest(_ value: FirestoreValue, base: String) -> JSONValue {
        switch value {
        case .null: return .object([("nullValue", .null)])
        case .boolean(let b): return .object([("booleanValue", .bool(b))])
        case .integer(let n): return .object([("integerValue", .string(String(n)))])
        case .double(let d):
            if d.isFinite { return .object([("doubleValue", .number(JSONNumber(d)))]) }
            return .object([("doubleValue", .string(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity"))])
        case .timestamp(let micros): return .object([("timestampValue", .string(DocumentJSON.rfc3339(micros)))])
        case .string(let s): return .object([("stringValue", .string(s))])
        case .bytes(let b): return .object([("bytesValue", .string(DocumentJSON.base64(b)))])
        case .reference(let path): return .object([("referenceValue", .string(base + path))])
        case .geoPoint(let latitude, let longitude):
            return .object([
                (
                    "geoPointValue",
                    .object([
                        ("latitude", .number(JSONNumber(latitude))), ("longitude", .number(JSONNumber(longitude))),
                    ])
                )
            ])
        case .array(let values):
            return .object([("arrayValue", .object([("values", .array(values.map { rest($0, base: base) }))]))])
        case .map(let fields):
            return .object([("mapValue", .object([("fields", rest(fields, base: base))]))])
        }
    }

    // MARK: Applying the writes

    /// `documents` with the writes applied, as the Firestore emulator would leave them.
    public func apply(to documents: [FirestoreDocument]) -> [FirestoreDocument] {
        var documents = documents
        var byPath: [[String]: Int] = [:]
        for (i, document) in documents.enumerated() { byPath[document.segments] = i }
        var deleted = Set<Int>()
        func index(_ segments: [String]) -> Int {
            if let i = byPath[segments], !deleted.contains(i) { return i }
            documents.append(FirestoreDocument(segments: segments, fields: []))
            byPath[segments] = documents.count - 1
            return documents.count - 1
        }
        for write in writes {
            switch write {
            case .delete(let document):
                if let i = byPath[document] {
                    deleted.insert(i)
                    byPath[document] = nil
                }
            case .set(let document, let fields):
                documents[index(document)].fields = fields
            case .update(let document, let fields):
                let i = index(document)
                for (path, value) in fields {
                    documents[i].fields = Self.updating(path[...], to: value, in: documents[i].fields)
                }
            case .transform(let document, let field, let append, let values):
                let i = index(document)
                var elements: [FirestoreValue] = []
                if case .array(let existing)? = Self.find(field[...], in: documents[i].fields) { elements = existing }
                if append {
                    for value in values where !elements.contains(value) { elements.append(value) }
                } else {
                    elements.removeAll { values.contains($0) }
                }
                documents[i].fields = Self.updating(field[...], to: .array(elements), in: documents[i].fields)
            }
        }
        return documents.enumerated().filter { !deleted.contains($0.offset) }.map(\.element)
    }

    /// `fields` with the value at `path` set, or removed for nil, keeping the field's place when it has one.
    private static func updating(_ path: ArraySlice<String>, to value: FirestoreValue?, in fields: [FirestoreField])
        -> [FirestoreField]
    {
        guard let name = path.first else { return fields }
        var fields = fields
        let index = fields.lastIndex { $0.name == name }
        if path.count == 1 {
            if let value {
                if let index {
                    fields[index].value = value
                } else {
                    fields.append(FirestoreField(name: name, value: value))
                }
            } else if let index {
                fields.remove(at: index)
            }
            return fields
        }
        var inner: [FirestoreField] = []
        if let index, case .map(let existing) = fields[index].value { inner = existing }
        let updated = FirestoreValue.map(updating(path.dropFirst(), to: value, in: inner))
        if let index {
            fields[index].value = updated
        } else if value != nil {
            fields.append(FirestoreField(name: name, value: updated))
        }
        return fields
    }
}

/// RFC 3339 text back to microseconds, for fixes that copy a timestamp the tree wrote as a string (a double holds
/// today's microseconds exactly: 1.7e15 < 2^53).
enum ISO8601Seconds {
    static func microseconds(_ text: String) -> Int64? {
        ISO8601.seconds(text).map { Int64(($0 * 1_000_000).rounded()) }
    }
}
