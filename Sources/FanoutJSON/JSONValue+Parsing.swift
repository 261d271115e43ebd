extension JSONValue {
    /// The deepest nesting of objects and arrays that `parse` accepts (512 levels). Deeper documents are
    /// rejected with "nesting deeper than 512 levels is not supported by JSONValue": Swift destroys nested enum
    /// values recursively, so a much deeper tree could overflow the stack when released. `JSONReader` itself has
    /// no depth limit.
    public static let maximumDepth = 512

    /// Parses a whole document (one value, then only whitespace) iteratively with an explicit stack.
    /// Duplicate keys: first position, last value (see the type's documentation).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes)
        var frames: [ParseFrame] = []
        var value: JSONValue

        nextValue: while true {
            switch try reader.peekKind() {
            case .object:
                guard frames.count < maximumDepth else { throw tooDeep(reader) }
                try reader.beginObject()
                if let key = try reader.nextKeyString() {
                    frames.append(ParseFrame(isObject: true, key: key))
                    continue nextValue
                }
                value = .object([])
            case .array:
                guard frames.count < maximumDepth else { throw tooDeep(reader) }
                try reader.beginArray()
                if try reader.nextElement() {
                    frames.append(ParseFrame(isObject: false, key: ""))
                    continue nextValue
                }
                value = .array([])
            case .string:
                value = .string(try reader.readString())
            case .number:
                value = .number(try reader.readNumber())
            case .bool:
                value = .bool(try reader.readBool())
            case .null:
                try reader.readNull()
                value = .null
            }

            // Attach the completed value to its parent, closing parents that end here.
            while let index = frames.indices.last {
                if frames[index].isObject {
                    frames[index].members.append((key: frames[index].key, value: value))
                    if let key = try reader.nextKeyString() {
                        frames[index].key = key
                        continue nextValue
                    }
                    value = .object(deduplicated(frames[index].members))
                } else {
                    frames[index].elements.append(value)
                    if try reader.nextElement() { continue nextValue }
                    value = .array(frames[index].elements)
                }
                frames.removeLast()
            }
            break
        }
        try reader.finish()
        return value
    }

    /// Parses a whole document from its text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { utf8 in
            do throws(JSONSyntaxError) {
                return .success(try parse(UnsafeRawBufferPointer(utf8)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The error for a container beyond `maximumDepth`, at the reader's cursor (the opening bracket).
    private static func tooDeep(_ reader: JSONReader) -> JSONSyntaxError {
        reader.error("nesting deeper than \(maximumDepth) levels is not supported by JSONValue", at: reader.offset)
    }

    /// Collapses duplicate keys: first position, last value. Keys are compared by UTF-8 bytes.
    static func deduplicated(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard members.count > 1 else { return members }
        if members.count <= 8 {
            var hasDuplicates = false
            outer: for j in 1..<members.count {
                for k in 0..<j where sameBytes(members[j].key, members[k].key) {
                    hasDuplicates = true
                    break outer
                }
            }
            if !hasDuplicates { return members }
        }
        var positions: [ByteKey: Int] = [:]
        positions.reserveCapacity(members.count)
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(members.count)
        for member in members {
            let key = ByteKey(member.key)
            if let position = positions[key] {
                result[position].value = member.value
            } else {
                positions[key] = result.count
                result.append(member)
            }
        }
        return result
    }
}

/// One open container while parsing.
struct ParseFrame {
    var isObject: Bool
    /// The key whose value is being parsed (objects only).
    var key: String
    var members: [(key: String, value: JSONValue)] = []
    var elements: [JSONValue] = []

    init(isObject: Bool, key: String) {
        self.isObject = isObject
        self.key = key
    }
}

/// A `String` hashed and compared by its UTF-8 bytes (no Unicode normalization).
struct ByteKey: Hashable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        JSONValue.sameBytes(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        for byte in string.utf8 { hasher.combine(byte) }
    }
}
