import FanoutJSON

/// Decodes an `EntityProto` record straight into the JSON of the export's tree: its path's segments, and its
/// fields as the members ``DocumentJSON/tree(_:)`` writes for them, byte for byte, without making a
/// ``FirestoreDocument`` first (whose strings, arrays and enum boxes were most of what a chunk cost).
///
/// It takes the records Firestore writes. Any other one it declines (throws): a damaged record, a value with more
/// than one field, a meaning Firestore does not give that value, an array whose elements are not consecutive; the
/// caller then decodes that record with ``EntityDecoder``, which stays the one definition of what a record means
/// and of its errors, and the tests compare the two on every record they have.
enum EntityJSON {
    /// Appends the record's path to `segments` and its fields to `members`; on a throw, either may hold part of
    /// the record, which the caller drops. `arrays` is scratch space, kept between records.
    static func decode(
        _ record: UnsafeRawBufferPointer, typed: Bool = false, segments: inout SegmentList, members: inout [UInt8],
        arrays: inout [UnsafeRawBufferPointer]
    ) throws(ProtoReader.Malformed) {
        var reader = ProtoReader(record)
        var keys = 0
        var level = Level(base: arrays.count)
        defer { arrays.removeSubrange(level.base...) }
        let firstSegment = segments.count
        while let (field, wire) = try reader.tag() {
            switch (field, wire) {
            case (13, .bytes):
                keys += 1
                guard keys == 1 else { throw declined }
                try key(try reader.lengthDelimited().bytes, into: &segments)
            case (14, .bytes), (15, .bytes):
                try property(
                    try reader.lengthDelimited().bytes, typed: typed, depth: 0, level: &level, arrays: &arrays,
                    into: &members)
            default:
                try reader.skip(wire, field)
            }
        }
        guard segments.count > firstSegment else { throw declined }
        level.close(into: &members)
    }

    /// What the caller is told when the record is one for ``EntityDecoder`` (its message is never shown).
    private static let declined = ProtoReader.Malformed(offset: 0, message: "declined")

    /// The members written so far at one level of nesting (the document, or a map in it), and its arrays: the
    /// one being written, and where the names of those begun at this level start in the scratch list.
    private struct Level {
        let base: Int
        var hasMembers = false
        var open: UnsafeRawBufferPointer?

        init(base: Int) { self.base = base }

        /// Ends the array being written, if any.
        mutating func close(into out: inout [UInt8]) {
            if open != nil { out.append(UInt8(ascii: "]")) }
            open = nil
        }

        /// Starts a member: the comma before any but the first, and its name.
        mutating func begin(_ name: UnsafeRawBufferPointer, into out: inout [UInt8]) {
            if hasMembers { out.append(UInt8(ascii: ",")) }
            hasMembers = true
            JSONWriter.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }
    }

    /// A key's `Path` (14) elements (1): collection (2) and ID, a name (4) or a number (3).
    private static func key(_ reference: UnsafeRawBufferPointer, into segments: inout SegmentList)
        throws(ProtoReader.Malformed)
    {
        var reader = ProtoReader(reference)
        while let (field, wire) = try reader.tag() {
            guard field == 14, wire == .bytes else {
                try reader.skip(wire, field)
                continue
            }
            var path = ProtoReader(try reader.lengthDelimited().bytes)
            while let (element, kind) = try path.tag() {
                guard element == 1, kind == .startGroup else {
                    try path.skip(kind, element)
                    continue
                }
                try pathElement(try path.group(1).bytes, type: 2, id: 3, name: 4) { segment in
                    switch segment {
                    case .bytes(let bytes): segments.append(bytes)
                    case .number(let id): segments.append(numbered: id)
                    }
                }
            }
        }
    }

    private enum Segment {
        case bytes(UnsafeRawBufferPointer)
        case number(Int64)
    }

    /// A path element's collection and ID, given to `add` as two segments.
    private static func pathElement(
        _ element: UnsafeRawBufferPointer, type: UInt32, id: UInt32, name: UInt32, add: (Segment) -> Void
    ) throws(ProtoReader.Malformed) {
        var reader = ProtoReader(element)
        var kind: UnsafeRawBufferPointer?
        var key: Segment?
        while let (field, wire) = try reader.tag() {
            if field == type, wire == .bytes {
                kind = try text(&reader)
            } else if field == name, wire == .bytes {
                key = .bytes(try text(&reader))
            } else if field == id, wire == .varint {
                key = .number(Int64(bitPattern: try reader.varint()))
            } else {
                try reader.skip(wire, field)
            }
        }
        guard let kind, let key else { throw declined }
        add(.bytes(kind))
        add(key)
    }

    /// A length-delimited field that must be UTF-8.
    private static func text(_ reader: inout ProtoReader) throws(ProtoReader.Malformed) -> UnsafeRawBufferPointer {
        let bytes = try reader.lengthDelimited().bytes
        guard RecordText.isUTF8(bytes) else { throw declined }
        return bytes
    }

    /// One property: a member of its own, an array's first element (which opens the array), or the next one.
    private static func property(
        _ message: UnsafeRawBufferPointer, typed: Bool, depth: Int, level: inout Level,
        arrays: inout [UnsafeRawBufferPointer],
        into out: inout [UInt8]
    ) throws(ProtoReader.Malformed) {
        var reader = ProtoReader(message)
        var meaning: UInt64 = 0
        var name: UnsafeRawBufferPointer?
        var multiple = false
        var value: UnsafeRawBufferPointer?
        while let (field, wire) = try reader.tag() {
            switch (field, wire) {
            case (1, .varint): meaning = try reader.varint()
            case (3, .bytes): name = try text(&reader)
            case (4, .varint): multiple = try reader.varint() != 0
            case (5, .bytes): value = try reader.lengthDelimited().bytes
            default: try reader.skip(wire, field)
            }
        }
        guard let name else { throw declined }
        if multiple, meaning != 24, let open = level.open, same(open, name) {
            out.append(UInt8(ascii: ","))
            try self.value(value, meaning: meaning, typed: typed, depth: depth, arrays: &arrays, into: &out)
            return
        }
        level.close(into: &out)
        if multiple || meaning == 24 {
            // An array's elements apart, or an empty array named again: EntityDecoder puts them together.
            if arrays[level.base...].contains(where: { same($0, name) }) { throw declined }
            arrays.append(name)
        }
        level.begin(name, into: &out)
        if meaning == 24 {
            out.append(literal: "[]")
        } else if multiple {
            out.append(UInt8(ascii: "["))
            level.open = name
            try self.value(value, meaning: meaning, typed: typed, depth: depth, arrays: &arrays, into: &out)
        } else {
            try self.value(value, meaning: meaning, typed: typed, depth: depth, arrays: &arrays, into: &out)
        }
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        SegmentList.equal(a, b)
    }

    /// A `PropertyValue` with its property's meaning, as ``DocumentJSON`` writes it: in a line (`typed`), or in
    /// the tree.
    private static func value(
        _ message: UnsafeRawBufferPointer?, meaning: UInt64, typed: Bool, depth: Int,
        arrays: inout [UnsafeRawBufferPointer],
        into out: inout [UInt8]
    ) throws(ProtoReader.Malformed) {
        guard let message else {
            out.append(literal: "null")
            return
        }
        var reader = ProtoReader(message)
        var found: (field: UInt32, bits: UInt64, bytes: UnsafeRawBufferPointer)?
        while let (field, wire) = try reader.tag() {
            let read: (UInt32, UInt64, UnsafeRawBufferPointer)
            switch (field, wire) {
            case (1, .varint), (2, .varint): read = (field, try reader.varint(), message)
            case (3, .bytes): read = (3, 0, try reader.lengthDelimited().bytes)
            case (4, .fixed64): read = (4, try reader.fixed64(), message)
            case (5, .startGroup), (12, .startGroup): read = (field, 0, try reader.group(field).bytes)
            default:
                try reader.skip(wire, field)
                continue
            }
            // Two values in one: EntityDecoder's rule of which counts applies.
            guard found == nil else { throw declined }
            found = read
        }
        guard let (field, bits, bytes) = found else {
            guard meaning == 0 else { throw declined }
            out.append(literal: "null")
            return
        }
        /// Writes `body`, in a line wrapped in an object of one member, `tag`, that says its type.
        func wrapped(_ tag: StaticString, _ body: (inout [UInt8]) throws(ProtoReader.Malformed) -> Void)
            throws(ProtoReader.Malformed)
        {
            if typed {
                out.append(literal: "{\"")
                out.append(literal: tag)
                out.append(literal: "\":")
            }
            try body(&out)
            if typed { out.append(UInt8(ascii: "}")) }
        }
        switch (field, meaning) {
        case (1, 0): appendDecimal(Int64(bitPattern: bits), to: &out)
        case (1, 7): try wrapped("__timestamp__") { DocumentJSON.appendRFC3339(Int64(bitPattern: bits), to: &$0) }
        case (2, 0): out.append(literal: bits != 0 ? "true" : "false")
        case (4, 0): DocumentJSON.append(double: Double(bitPattern: bits), typed: typed, to: &out)
        case (3, 0), (3, 15):
            guard RecordText.isUTF8(bytes) else { throw declined }
            JSONWriter.appendQuoted(bytes, to: &out)
        case (3, 14), (3, 16):
            try wrapped("__bytes__") { out in
                out.append(UInt8(ascii: "\""))
                DocumentJSON.appendBase64(bytes, to: &out)
                out.append(UInt8(ascii: "\""))
            }
        case (3, 19):
            guard depth < EntityDecoder.maximumDepth else { throw declined }
            try map(bytes, typed: typed, depth: depth + 1, arrays: &arrays, into: &out)
        case (5, 0), (5, 9):
            let (x, y) = try EntityDecoder.point(ProtoReader(bytes))
            DocumentJSON.append(latitude: x, longitude: y, typed: typed, to: &out)
        case (12, 0):
            try wrapped("__ref__") { out throws(ProtoReader.Malformed) in try reference(bytes, into: &out) }
        default:
            throw declined
        }
    }

    /// A `ReferenceValue` group's path, as one string of its segments joined by `/`.
    private static func reference(_ group: UnsafeRawBufferPointer, into out: inout [UInt8])
        throws(ProtoReader.Malformed)
    {
        var reader = ProtoReader(group)
        out.append(UInt8(ascii: "\""))
        var first = true
        while let (element, kind) = try reader.tag() {
            guard element == 14, kind == .startGroup else {
                try reader.skip(kind, element)
                continue
            }
            try pathElement(try reader.group(14).bytes, type: 15, id: 16, name: 17) { segment in
                if !first { out.append(UInt8(ascii: "/")) }
                first = false
                switch segment {
                case .bytes(let bytes): JSONWriter.appendEscaped(bytes, to: &out)
                case .number(let id):
                    out.append(literal: "__id")
                    appendDecimal(id, to: &out)
                    out.append(literal: "__")
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A map: the properties of a nested entity, at a level of their own.
    private static func map(
        _ entity: UnsafeRawBufferPointer, typed: Bool, depth: Int, arrays: inout [UnsafeRawBufferPointer],
        into out: inout [UInt8]
    ) throws(ProtoReader.Malformed) {
        var reader = ProtoReader(entity)
        var level = Level(base: arrays.count)
        defer { arrays.removeSubrange(level.base...) }
        out.append(UInt8(ascii: "{"))
        while let (field, wire) = try reader.tag() {
            if field == 14 || field == 15, wire == .bytes {
                try property(
                    try reader.lengthDelimited().bytes, typed: typed, depth: depth, level: &level, arrays: &arrays,
                    into: &out)
            } else {
                try reader.skip(wire, field)
            }
        }
        level.close(into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The decimal digits of `n`, as `String(n)` writes them.
    static func appendDecimal(_ n: Int64, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var magnitude = n.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            if n < 0 { out.append(UInt8(ascii: "-")) }
            out.appendBytes(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }
}
