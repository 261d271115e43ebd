import FanoutImport

/// Encodes a Firestore document as the App Engine `EntityProto` record an export holds, as the Firestore emulator
/// writes it: the key (13) with the project's app ID and the path, every field as a raw property (15) with
/// `multiple` written, maps as nested entities with an empty key, the entity group (16) the path's first element.
/// `EntityDecoder` in FanoutImport reads it back; Google's reader checks it in the tests.
enum EntityEncoder {
    static func record(_ document: FirestoreDocument, app: String) -> [UInt8] {
        var out = ProtoWriter()
        out.message(13) { key in
            key.string(13, app)
            key.message(14) { path in elements(document.segments, into: &path, group: 1, type: 2, id: 3, name: 4) }
        }
        properties(document.fields, app: app, into: &out)
        out.message(16) { group in
            elements(Array(document.segments.prefix(2)), into: &group, group: 1, type: 2, id: 3, name: 4)
        }
        return out.bytes
    }

    private static func elements(
        _ segments: [String], into out: inout ProtoWriter, group: UInt32, type: UInt32, id: UInt32, name: UInt32
    ) {
        var i = 0
        while i + 1 < segments.count {
            let kind = segments[i], key = segments[i + 1]
            out.group(group) { element in
                element.string(type, kind)
                if let number = numericID(key) {
                    element.varint(id, UInt64(bitPattern: number))
                } else {
                    element.string(name, key)
                }
            }
            i += 2
        }
    }

    /// `__id7__` names the numeric ID 7.
    private static func numericID(_ key: String) -> Int64? {
        guard key.hasPrefix("__id"), key.hasSuffix("__"), key.count > 6 else { return nil }
        return Int64(key.dropFirst(4).dropLast(2))
    }

    private static func properties(_ fields: [FirestoreField], app: String, into out: inout ProtoWriter) {
        for field in fields {
            if case .array(let elements) = field.value {
                if elements.isEmpty {
                    out.message(15) { property in
                        property.varint(1, 24)
                        property.string(3, field.name)
                        property.varint(4, 0)
                        property.message(5) { _ in }
                    }
                }
                for element in elements { property(field.name, element, multiple: true, app: app, into: &out) }
            } else {
                property(field.name, field.value, multiple: false, app: app, into: &out)
            }
        }
    }

    private static func property(
        _ name: String, _ value: FirestoreValue, multiple: Bool, app: String, into out: inout ProtoWriter
    ) {
        out.message(15) { property in
            switch value {
            case .timestamp: property.varint(1, 7)
            case .map: property.varint(1, 19)
            case .bytes: property.varint(1, 16)
            case .geoPoint: property.varint(1, 9)
            default: break
            }
            property.string(3, name)
            property.varint(4, multiple ? 1 : 0)
            property.message(5) { v in
                switch value {
                case .null: break
                case .boolean(let b): v.varint(2, b ? 1 : 0)
                case .integer(let n): v.varint(1, UInt64(bitPattern: n))
                case .double(let d): v.fixed64(4, d.bitPattern)
                case .timestamp(let micros): v.varint(1, UInt64(bitPattern: micros))
                case .string(let s): v.string(3, s)
                case .bytes(let b): v.bytes(3, b)
                case .reference(let path):
                    v.group(12) { reference in
                        reference.string(13, app)
                        elements(
                            path.split(separator: "/").map(String.init), into: &reference, group: 14, type: 15, id: 16,
                            name: 17)
                    }
                case .geoPoint(let latitude, let longitude):
                    v.group(5) { point in
                        point.fixed64(6, latitude.bitPattern)
                        point.fixed64(7, longitude.bitPattern)
                    }
                case .map(let fields):
                    var entity = ProtoWriter()
                    entity.message(13) { key in
                        key.string(13, "")
                        key.message(14) { _ in }
                    }
                    properties(fields, app: app, into: &entity)
                    entity.message(16) { _ in }
                    v.bytes(3, entity.bytes)
                case .array:
                    // Firestore has no arrays in arrays; the caller writes an array's elements one by one.
                    break
                }
            }
        }
    }
}
