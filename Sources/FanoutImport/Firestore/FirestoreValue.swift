/// A value of a Firestore document's field, with the type Firestore gives it.
public enum FirestoreValue: Equatable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    /// Microseconds since 1970 (the export keeps timestamps to the microsecond).
    case timestamp(microseconds: Int64)
    case string(String)
    case bytes([UInt8])
    /// The path of the document it names (`users/abc`).
    case reference(String)
    case geoPoint(latitude: Double, longitude: Double)
    case array([FirestoreValue])
    case map([FirestoreField])
}

/// A named value: a document's field, or an entry of a map.
public struct FirestoreField: Equatable, Sendable {
    public var name: String
    public var value: FirestoreValue

    public init(name: String, value: FirestoreValue) {
        self.name = name
        self.value = value
    }
}

/// A document of a Firestore export: its path, its fields in stored order, and where its record is.
public struct FirestoreDocument: Equatable, Sendable {
    /// The path's segments, collection and document ID by turns (`users`, `abc`, `followers`, `xyz`); a numeric
    /// ID reads as Firestore names it, `__id7__`.
    public var segments: [String]
    public var fields: [FirestoreField]
    /// Which `output-N` file (its place in ``FirestoreExport/files``) and the byte offset of its record's first
    /// header there.
    public var file: Int
    public var offset: Int

    public init(segments: [String], fields: [FirestoreField], file: Int = 0, offset: Int = 0) {
        self.segments = segments
        self.fields = fields
        self.file = file
        self.offset = offset
    }

    /// `users/abc/followers/xyz`.
    public var path: String { segments.joined(separator: "/") }
}
