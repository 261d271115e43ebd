import FanoutImport
import FanoutJSON

/// A Realtime Database JSON tree as Firestore documents: each top-level key a collection, each of its members a
/// document whose members are its fields (objects as maps, arrays as arrays). `fanout documents --tree` of the
/// result gives the tree back, so the same data can be read in both forms (`fanout generate --format firestore`).
public enum TreeDocuments {
    /// Why a tree has no Firestore form: a value where a collection or a document must be an object, or an array
    /// in an array.
    public struct Unstorable: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The documents of the tree in `bytes`, handed to `body` one at a time in the tree's order, each parsed alone,
    /// so that memory holds one document's values, not the tree's (a generated 1.1 GB export).
    public static func each(
        in bytes: UnsafeRawBufferPointer, _ body: (FirestoreDocument) -> Void
    ) throws {
        var reader = JSONReader(bytes)
        guard try reader.peekKind() == .object else {
            throw Unstorable(path: "/", reason: "the top level is not an object of collections")
        }
        try reader.beginObject()
        while let collection = try reader.nextKeyString() {
            guard try reader.peekKind() == .object else {
                throw Unstorable(path: collection, reason: "a collection must be an object of documents")
            }
            try reader.beginObject()
            while let id = try reader.nextKeyString() {
                let start = reader.offset
                try reader.skipValue()
                let value = try JSONValue.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<reader.offset]))
                guard case .object(let fields) = value else {
                    throw Unstorable(path: "\(collection)/\(id)", reason: "a document must be an object of fields")
                }
                body(try Self.document([collection, id], fields))
            }
        }
        try reader.finish()
    }

    private static func document(_ segments: [String], _ fields: [(key: String, value: JSONValue)]) throws(Unstorable)
        -> FirestoreDocument
    {
        let path = segments.joined(separator: "/")
        return FirestoreDocument(
            segments: segments,
            fields: try fields.map { name, value throws(Unstorable) in
                FirestoreField(name: name, value: try self.value(value, at: "\(path)/\(name)"))
            })
    }

    public static func documents(_ tree: JSONValue) throws(Unstorable) -> [FirestoreDocument] {
        guard case .object(let collections) = tree else {
            throw Unstorable(path: "/", reason: "the top level is not an object of collections")
        }
        var documents: [FirestoreDocument] = []
        for (collection, value) in collections {
            guard case .object(let members) = value else {
                throw Unstorable(path: collection, reason: "a collection must be an object of documents")
            }
            for (id, document) in members {
                guard case .object(let fields) = document else {
                    throw Unstorable(path: "\(collection)/\(id)", reason: "a document must be an object of fields")
                }
                documents.append(try Self.document([collection, id], fields))
            }
        }
        return documents
    }

    private static func value(_ json: JSONValue, at path: String, inArray: Bool = false) throws(Unstorable)
        -> FirestoreValue
    {
        switch json {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .string(let s): return .string(s)
        case .number(let n):
            if let exact = n.int64 { return .integer(exact) }
            return .double(n.double)
        case .array(let elements):
            if inArray { throw Unstorable(path: path, reason: "Firestore has no arrays in arrays") }
            var values: [FirestoreValue] = []
            for (i, element) in elements.enumerated() {
                values.append(try value(element, at: "\(path)/\(i)", inArray: true))
            }
            return .array(values)
        case .object(let members):
            var fields: [FirestoreField] = []
            for (name, member) in members {
                fields.append(FirestoreField(name: name, value: try value(member, at: "\(path)/\(name)")))
            }
            return .map(fields)
        }
    }
}
