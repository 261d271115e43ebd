/// Decodes an App Engine `EntityProto` record of a Firestore export into a document.
///
/// The fields used, from `entity.proto` (Protos/firestore/entity.proto holds the subset): the entity's key (13) as
/// path elements, its properties (14 indexed, 15 not) each with a meaning (1), a name (3), whether it is an
/// array's element (4) and a value (5): int64 (1), boolean (2), bytes of a string, blob or nested entity (3),
/// double (4), a point group (5), a reference group (12). Meanings say how Firestore's types are kept:
/// `GD_WHEN` (7) a timestamp in microseconds, `ENTITY_PROTO` (19) a map, `EMPTY_LIST` (24) `[]`, `BLOB` (14) and
/// `BYTESTRING` (16) bytes, `TEXT` (15) a string, `GEORSS_POINT` (9) a geo point; no value is null.
enum EntityDecoder {
    struct Failure: Error {
        /// The offset in the record.
        var offset: Int
        var message: String
        /// The document's path, when its key was read before the problem.
        var document: String?
    }

    /// Entities nested deeper than this (maps in maps) are refused: Firestore allows 20 levels.
    static let maximumDepth = 100

    /// The document in `record`.
    static func document(_ record: UnsafeRawBufferPointer) throws(Failure) -> FirestoreDocument {
        var segments: [String]?
        do throws(ProtoReader.Malformed) {
            var reader = ProtoReader(record)
            var properties = Properties()
            while let (field, wire) = try reader.tag() {
                switch (field, wire) {
                case (13, .bytes):
                    let (bytes, base) = try reader.lengthDelimited()
                    segments = try key(ProtoReader(bytes, base: base))
                case (14, .bytes), (15, .bytes):
                    let (bytes, base) = try reader.lengthDelimited()
                    try properties.add(ProtoReader(bytes, base: base), depth: 0)
                default:
                    try reader.skip(wire, field)
                }
            }
            guard let segments, !segments.isEmpty else {
                throw ProtoReader.Malformed(offset: 0, message: "a record that is no entity: it has no key")
            }
            return FirestoreDocument(segments: segments, fields: properties.fields)
        } catch {
            throw Failure(offset: error.offset, message: error.message, document: segments?.joined(separator: "/"))
        }
    }

    /// The app ID in a record's key (`dev~my-project`), or nil when it has none.
    static func app(_ record: UnsafeRawBufferPointer) -> String? {
        var reader = ProtoReader(record)
        while let (field, wire) = try? reader.tag() {
            guard field == 13, wire == .bytes else {
                guard (try? reader.skip(wire, field)) != nil else { return nil }
                continue
            }
            guard let (bytes, _) = try? reader.lengthDelimited() else { return nil }
            var key = ProtoReader(bytes)
            while let (inner, kind) = try? key.tag() {
                if inner == 13, kind == .bytes { return try? text(&key) }
                guard (try? key.skip(kind, inner)) != nil else { return nil }
            }
            return nil
        }
        return nil
    }

    /// The path of a `Reference` message: its `Path` (14), whose `Element` groups (1) hold a type (2) and an id (3)
    /// or a name (4).
    private static func key(_ reference: ProtoReader) throws(ProtoReader.Malformed) -> [String] {
        var reader = reference
        var segments: [String] = []
        while let (field, wire) = try reader.tag() {
            guard field == 14, wire == .bytes else {
                try reader.skip(wire, field)
                continue
            }
            let (bytes, base) = try reader.lengthDelimited()
            var path = ProtoReader(bytes, base: base)
            while let (element, kind) = try path.tag() {
                guard element == 1, kind == .startGroup else {
                    try path.skip(kind, element)
                    continue
                }
                let (group, at) = try path.group(1)
                try elements(ProtoReader(group, base: at), type: 2, id: 3, name: 4, into: &segments)
            }
        }
        return segments
    }

    /// One path element's type and id or name, appended as two segments.
    private static func elements(
        _ element: ProtoReader, type: UInt32, id: UInt32, name: UInt32, into segments: inout [String]
    ) throws(ProtoReader.Malformed) {
        var reader = element
        let start = reader.position
        var kind: String?, key: String?
        while let (field, wire) = try reader.tag() {
            if field == type, wire == .bytes {
                kind = try text(&reader)
            } else if field == name, wire == .bytes {
                key = try text(&reader)
            } else if field == id, wire == .varint {
                key = "__id\(Int64(bitPattern: try reader.varint()))__"
            } else {
                try reader.skip(wire, field)
            }
        }
        guard let kind, let key else {
            throw ProtoReader.Malformed(offset: start, message: "a path element without a collection or an ID")
        }
        segments.append(kind)
        segments.append(key)
    }

    private static func text(_ reader: inout ProtoReader) throws(ProtoReader.Malformed) -> String {
        let start = reader.position
        let (bytes, _) = try reader.lengthDelimited()
        guard let string = RecordText.string(bytes) else {
            throw ProtoReader.Malformed(offset: start, message: "a string that is not UTF-8")
        }
        return string
    }

    /// A document's or a map's properties put together: an array's elements, one property each, under one name.
    private struct Properties {
        var fields: [FirestoreField] = []
        private var arrays: [String: Int] = [:]

        mutating func add(_ property: ProtoReader, depth: Int) throws(ProtoReader.Malformed) {
            var reader = property
            let start = reader.position
            var meaning: UInt64 = 0
            var name: String?
            var multiple = false
            var value: (bytes: UnsafeRawBufferPointer, base: Int)?
            while let (field, wire) = try reader.tag() {
                switch (field, wire) {
                case (1, .varint): meaning = try reader.varint()
                case (3, .bytes): name = try EntityDecoder.text(&reader)
                case (4, .varint): multiple = try reader.varint() != 0
                case (5, .bytes): value = try reader.lengthDelimited()
                default: try reader.skip(wire, field)
                }
            }
            guard let name else { throw ProtoReader.Malformed(offset: start, message: "a property without a name") }
            if meaning == 24 {
                // EMPTY_LIST: the empty array, which has no element to carry it.
                guard arrays[name] == nil else {
                    throw ProtoReader.Malformed(
                        offset: start, message: "property \"\(name)\" is both an array and empty")
                }
                arrays[name] = fields.count
                fields.append(FirestoreField(name: name, value: .array([])))
                return
            }
            let decoded = try EntityDecoder.value(value, meaning: meaning, name: name, at: start, depth: depth)
            guard multiple else {
                fields.append(FirestoreField(name: name, value: decoded))
                return
            }
            if let index = arrays[name], case .array(var elements) = fields[index].value {
                fields[index].value = .null
                elements.append(decoded)
                fields[index].value = .array(elements)
            } else {
                arrays[name] = fields.count
                fields.append(FirestoreField(name: name, value: .array([decoded])))
            }
        }
    }

    /// A `PropertyValue` read with its property's meaning.
    private static func value(
        _ message: (bytes: UnsafeRawBufferPointer, base: Int)?, meaning: UInt64, name: String, at start: Int, depth: Int
    ) throws(ProtoReader.Malformed) -> FirestoreValue {
        guard let message else { return .null }
        var reader = ProtoReader(message.bytes, base: message.base)
        var found: FirestoreValue = .null
        var bytes: (UnsafeRawBufferPointer, Int)?
        while let (field, wire) = try reader.tag() {
            switch (field, wire) {
            case (1, .varint): found = .integer(Int64(bitPattern: try reader.varint()))
            case (2, .varint): found = .boolean(try reader.varint() != 0)
            case (3, .bytes): bytes = try reader.lengthDelimited()
            case (4, .fixed64): found = .double(Double(bitPattern: try reader.fixed64()))
            case (5, .startGroup):
                let (group, base) = try reader.group(5)
                let (latitude, longitude) = try point(ProtoReader(group, base: base))
                found = .geoPoint(latitude: latitude, longitude: longitude)
            case (12, .startGroup):
                let (group, base) = try reader.group(12)
                var segments: [String] = []
                var inner = ProtoReader(group, base: base)
                while let (element, kind) = try inner.tag() {
                    guard element == 14, kind == .startGroup else {
                        try inner.skip(kind, element)
                        continue
                    }
                    let (path, at) = try inner.group(14)
                    try elements(ProtoReader(path, base: at), type: 15, id: 16, name: 17, into: &segments)
                }
                found = .reference(segments.joined(separator: "/"))
            default: try reader.skip(wire, field)
            }
        }
        if let (data, base) = bytes {
            switch meaning {
            case 14, 16: return .bytes(Array(data))
            case 19:
                guard depth < maximumDepth else {
                    throw ProtoReader.Malformed(offset: base, message: "maps nested more than \(maximumDepth) deep")
                }
                return .map(try map(ProtoReader(data, base: base), depth: depth + 1))
            case 0, 15:
                guard let string = RecordText.string(data) else {
                    throw ProtoReader.Malformed(
                        offset: base, message: "property \"\(name)\" holds a string that is not UTF-8")
                }
                return .string(string)
            default: break
            }
        } else {
            switch (meaning, found) {
            case (7, .integer(let micros)): return .timestamp(microseconds: micros)
            case (0, _), (9, .geoPoint): return found
            default: break
            }
        }
        throw ProtoReader.Malformed(
            offset: start,
            message:
                "property \"\(name)\" has the meaning \(meaning), which Firestore does not write for \(kind(found, bytes != nil))"
        )
    }

    private static func kind(_ value: FirestoreValue, _ hasBytes: Bool) -> String {
        if hasBytes { return "bytes" }
        switch value {
        case .null: return "no value"
        case .boolean: return "a boolean"
        case .integer: return "an integer"
        case .double: return "a double"
        case .geoPoint: return "a point"
        case .reference: return "a reference"
        default: return "this value"
        }
    }

    /// A map: the properties of a nested entity (its key, if any, is not part of the value).
    private static func map(_ entity: ProtoReader, depth: Int) throws(ProtoReader.Malformed) -> [FirestoreField] {
        var reader = entity
        var properties = Properties()
        while let (field, wire) = try reader.tag() {
            if field == 14 || field == 15, wire == .bytes {
                let (bytes, base) = try reader.lengthDelimited()
                try properties.add(ProtoReader(bytes, base: base), depth: depth)
            } else {
                try reader.skip(wire, field)
            }
        }
        return properties.fields
    }

    /// A `PointValue` group: x (6) is the latitude, y (7) the longitude.
    static func point(_ group: ProtoReader) throws(ProtoReader.Malformed) -> (latitude: Double, longitude: Double) {
        var reader = group
        var x = 0.0, y = 0.0
        while let (field, wire) = try reader.tag() {
            switch (field, wire) {
            case (6, .fixed64): x = Double(bitPattern: try reader.fixed64())
            case (7, .fixed64): y = Double(bitPattern: try reader.fixed64())
            default: try reader.skip(wire, field)
            }
        }
        return (x, y)
    }
}
