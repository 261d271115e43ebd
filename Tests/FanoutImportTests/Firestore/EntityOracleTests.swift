import FanoutTestSupport
import Foundation
import SwiftProtobuf
import Testing

@testable import FanoutImport

/// The hand-written `EntityProto` decoder (`EntityDecoder`) against an oracle: the same records parsed by
/// swift-protobuf's code generated from Protos/firestore/entity.proto (`make protos`: Generated/entity.pb.swift)
/// and made into documents here, by Firestore's rules of meanings, without the decoder's wire reading.
@Suite struct EntityOracleTests {
    /// The real exports (their README says where they come from), beside the repository.
    static let exports = repositoryRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/testdata/exports/firestore")
    /// Every export's folder of `output-N` files, by the export's name.
    static let exportNames: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: exports.path)) ?? []).sorted().filter {
            FileManager.default.fileExists(atPath: EntityOracleTests.outputs(of: $0).path)
        }

    static func outputs(of export: String) -> URL {
        exports.appendingPathComponent("\(export)/export/firestore_export/all_namespaces/all_kinds")
    }

    @Test(.enabled(if: !exportNames.isEmpty, "needs the real exports in ../shared/testdata/exports/firestore"))
    func realExportsDecodeAsTheGeneratedCodeReadsThem() throws {
        var total = 0
        for export in Self.exportNames {
            let folder = Self.outputs(of: export)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasPrefix("output-")
            }.sorted()
            #expect(!files.isEmpty, "\(export) has no output-N file")
            var paths: [String] = []
            for file in files {
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
                let records = try bytes.withUnsafeBytes { raw in
                    var log = LevelDBLog(raw)
                    var scratch: [UInt8] = []
                    var records: [(start: Int, bytes: [UInt8])] = []
                    while let (start, data) = try log.next(scratch: &scratch) {
                        records.append((start, data.map { Array($0) } ?? scratch))
                    }
                    return records
                }
                // The records' framing, read again without LevelDBLog: the same records, none lost.
                let framed = framedRecords(bytes)
                #expect(records.map { $0.start } == framed.map { $0.start }, "\(export)/\(file): the records' offsets")
                #expect(records.map { $0.bytes } == framed.map { $0.bytes }, "\(export)/\(file): the records' bytes")
                for (start, record) in records {
                    let place = "\(export)/\(file) record at \(start)"
                    let expected: FirestoreDocument
                    do {
                        expected = try EntityOracle.document(try Entity(serializedBytes: record))
                    } catch {
                        Issue.record("\(place): the generated code cannot read it: \(error)")
                        continue
                    }
                    paths.append(expected.path)
                    let decoded: FirestoreDocument
                    do {
                        decoded = try record.withUnsafeBytes { try EntityDecoder.document($0) }
                    } catch {
                        Issue.record("\(place) (\(expected.path)): the decoder fails: \(error)")
                        continue
                    }
                    if let difference = Difference.decoderAndOracle.of(decoded, expected) {
                        Issue.record("\(place): \(difference)")
                    }
                }
                total += records.count
            }
            // Google's own decoding of the same export (decoded.json, its README says how): the same documents.
            let decodedJSON = Self.exports.appendingPathComponent("\(export)/decoded.json")
            if FileManager.default.fileExists(atPath: decodedJSON.path) {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: decodedJSON)) as? [String: Any]
                let documents = try #require(json?["documents"] as? [String: Any], "\(export)/decoded.json")
                #expect(paths.count == documents.count, "\(export): records against Google's documents")
                #expect(paths.sorted() == documents.keys.sorted(), "\(export): the documents' paths")
            }
        }
        #expect(total > 0)
    }

    @Test func handBuiltEntitiesDecodeAsExpected() throws {
        for (message, expected) in try handBuilt() {
            // The oracle's own reading first, so that a mistake in the expectation is not blamed on the decoder.
            let bytes: [UInt8] = try message.serializedBytes()
            let oracle = try EntityOracle.document(try Entity(serializedBytes: bytes))
            if let difference = Difference(found: "the generated code", expected: "the test").of(oracle, expected) {
                Issue.record("\(difference)")
            }
            let decoded = try bytes.withUnsafeBytes { try EntityDecoder.document($0) }
            if let difference = Difference(found: "the decoder", expected: "the test").of(decoded, expected) {
                Issue.record("\(difference)")
            }
        }
    }

    /// Documents made with the generated code, and the documents they are: every kind of value.
    private func handBuilt() throws -> [(Entity, FirestoreDocument)] {
        let comments = try [("u1", "hi"), ("u2", "")].map { uid, text in
            try Entity.with {
                $0.rawProperty = [property("uid", string(uid)), property("text", .text, string(text))]
            }.serializedData()
        }
        let inner = try Entity.with {
            $0.rawProperty = [property("depth", .with { $0.int64Value = 2 }), property("note", string(""))]
        }.serializedData()
        let moderation = try Entity.with {
            // A key in a nested entity is no part of the map.
            $0.key = key(("ignored", .name("x")))
            $0.property = [property("status", string("ok"))]
            $0.rawProperty = [
                property("checkedAt", .gdWhen, .with { $0.int64Value = 1_769_000_000_123_456 }),
                property("flags", .emptyList),
                property("inner", .entityProto, .with { $0.stringValue = inner }),
            ]
        }.serializedData()
        let everything = Entity.with {
            $0.key = key(("users", .name("alice")), ("posts", .id(42)))
            $0.entityGroup = .with { $0.element = [element("users", .name("alice"))] }
            $0.property = [
                property("published", .with { $0.booleanValue = true }),
                property("likes", .with { $0.int64Value = -7 }),
                property("tags", multiple: true, string("a")),
                property("score", .with { $0.doubleValue = 2.5 }),
                property("tags", multiple: true, string("b")),
                property("created", .gdWhen, .with { $0.int64Value = 1_703_173_156_609_000 }),
                property("title", string("Café ☕")),
                property("author", .with { $0.referenceValue = reference(("users", .name("alice"))) }),
                property("parent", .with { $0.referenceValue = reference(("users", .name("bob")), ("posts", .id(7))) }),
                property(
                    "where", .georssPoint,
                    .with {
                        $0.pointValue = .with {
                            $0.x = 48.8566
                            $0.y = -2.3522
                        }
                    }),
            ]
            $0.rawProperty = [
                property("deleted"),
                property("body", .text, string("a long text\nof two lines")),
                property("thumbnail", .blob, .with { $0.stringValue = Data([0, 0xFF, 0x80]) }),
                property("digest", .bytestring, .with { $0.stringValue = Data([0xC3, 0x28]) }),
                property("comments", .entityProto, multiple: true, .with { $0.stringValue = comments[0] }),
                property("comments", .entityProto, multiple: true, .with { $0.stringValue = comments[1] }),
                property("moderation", .entityProto, .with { $0.stringValue = moderation }),
                property("followers", .emptyList),
                property("big", .with { $0.int64Value = .max }),
            ]
        }
        let expected = FirestoreDocument(
            segments: ["users", "alice", "posts", "__id42__"],
            fields: [
                FirestoreField(name: "published", value: .boolean(true)),
                FirestoreField(name: "likes", value: .integer(-7)),
                FirestoreField(name: "tags", value: .array([.string("a"), .string("b")])),
                FirestoreField(name: "score", value: .double(2.5)),
                FirestoreField(name: "created", value: .timestamp(microseconds: 1_703_173_156_609_000)),
                FirestoreField(name: "title", value: .string("Café ☕")),
                FirestoreField(name: "author", value: .reference("users/alice")),
                FirestoreField(name: "parent", value: .reference("users/bob/posts/__id7__")),
                FirestoreField(name: "where", value: .geoPoint(latitude: 48.8566, longitude: -2.3522)),
                FirestoreField(name: "deleted", value: .null),
                FirestoreField(name: "body", value: .string("a long text\nof two lines")),
                FirestoreField(name: "thumbnail", value: .bytes([0, 0xFF, 0x80])),
                FirestoreField(name: "digest", value: .bytes([0xC3, 0x28])),
                FirestoreField(
                    name: "comments",
                    value: .array([
                        .map([
                            FirestoreField(name: "uid", value: .string("u1")),
                            FirestoreField(name: "text", value: .string("hi")),
                        ]),
                        .map([
                            FirestoreField(name: "uid", value: .string("u2")),
                            FirestoreField(name: "text", value: .string("")),
                        ]),
                    ])),
                FirestoreField(
                    name: "moderation",
                    value: .map([
                        FirestoreField(name: "status", value: .string("ok")),
                        FirestoreField(name: "checkedAt", value: .timestamp(microseconds: 1_769_000_000_123_456)),
                        FirestoreField(name: "flags", value: .array([])),
                        FirestoreField(
                            name: "inner",
                            value: .map([
                                FirestoreField(name: "depth", value: .integer(2)),
                                FirestoreField(name: "note", value: .string("")),
                            ])),
                    ])),
                FirestoreField(name: "followers", value: .array([])),
                FirestoreField(name: "big", value: .integer(.max)),
            ])
        // A subcollection's document with numeric IDs (a negative one too) and no fields.
        let empty = Entity.with {
            $0.key = key(("rooms", .id(1)), ("messages", .id(-5)), ("reads", .id(9_007_199_254_740_993)))
        }
        let emptyExpected = FirestoreDocument(
            segments: ["rooms", "__id1__", "messages", "__id-5__", "reads", "__id9007199254740993__"], fields: [])
        return [(everything, expected), (empty, emptyExpected)]
    }
}

private typealias Entity = StorageOnestoreV3_EntityProto
private typealias Property = StorageOnestoreV3_Property
private typealias PropertyValue = StorageOnestoreV3_PropertyValue

/// Documents made from the generated code's messages, by the meanings Firestore writes (entity.proto's header):
/// indexed properties, then the others; an array's elements (`multiple`) under their name, where the first is;
/// `EMPTY_LIST` an empty array; `ENTITY_PROTO` a map of the nested entity's properties. Anything else Firestore does
/// not write is an error, as is a value of two kinds or a property named twice.
private enum EntityOracle {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func document(_ entity: Entity) throws -> FirestoreDocument {
        guard entity.hasKey, entity.key.hasPath, !entity.key.path.element.isEmpty else {
            throw Failure(description: "an entity without a key")
        }
        let segments = try entity.key.path.element.flatMap { element in
            guard element.hasType else { throw Failure(description: "a key's element without a type") }
            return [element.type, try id(element.hasID ? element.id : nil, element.hasName ? element.name : nil)]
        }
        return FirestoreDocument(segments: segments, fields: try fields(entity))
    }

    static func id(_ number: Int64?, _ name: String?) throws -> String {
        switch (number, name) {
        case (let number?, nil): return "__id\(number)__"
        case (nil, let name?): return name
        default:
            throw Failure(description: "a path element with \(number == nil ? "neither" : "both") an ID and a name")
        }
    }

    static func fields(_ entity: Entity) throws -> [FirestoreField] {
        var fields: [FirestoreField] = []
        var named: [String: (index: Int, isArray: Bool)] = [:]
        for property in entity.property + entity.rawProperty {
            guard property.hasName else { throw Failure(description: "a property without a name") }
            guard property.unknownFields.data.isEmpty, property.value.unknownFields.data.isEmpty else {
                throw Failure(description: "property \"\(property.name)\" holds fields entity.proto does not list")
            }
            let name = property.name
            if let earlier = named[name] {
                guard earlier.isArray, property.multiple, property.meaning != .emptyList,
                    case .array(let elements) = fields[earlier.index].value
                else { throw Failure(description: "property \"\(name)\" is named twice") }
                fields[earlier.index].value = .array(elements + [try value(property)])
            } else if property.meaning == .emptyList {
                named[name] = (fields.count, false)
                fields.append(FirestoreField(name: name, value: .array([])))
            } else {
                named[name] = (fields.count, property.multiple)
                let value = try value(property)
                fields.append(FirestoreField(name: name, value: property.multiple ? .array([value]) : value))
            }
        }
        return fields
    }

    static func value(_ property: Property) throws -> FirestoreValue {
        let v = property.value
        let kinds = [
            v.hasInt64Value, v.hasBooleanValue, v.hasStringValue, v.hasDoubleValue, v.hasPointValue, v.hasUserValue,
            v.hasReferenceValue,
        ].filter { $0 }.count
        guard kinds <= 1 else { throw Failure(description: "property \"\(property.name)\" has \(kinds) values") }
        let unexpected = Failure(
            description: "property \"\(property.name)\" has the meaning \(property.meaning) with the value \(v)")
        switch property.meaning {
        case .noMeaning:
            if v.hasInt64Value { return .integer(v.int64Value) }
            if v.hasBooleanValue { return .boolean(v.booleanValue) }
            if v.hasStringValue { return try string(v.stringValue, property) }
            if v.hasDoubleValue { return .double(v.doubleValue) }
            if v.hasPointValue { return .geoPoint(latitude: v.pointValue.x, longitude: v.pointValue.y) }
            if v.hasReferenceValue {
                let path = try v.referenceValue.pathElement.flatMap { element in
                    guard element.hasType else { throw Failure(description: "a reference's element without a type") }
                    return [
                        element.type, try id(element.hasID ? element.id : nil, element.hasName ? element.name : nil),
                    ]
                }
                return .reference(path.joined(separator: "/"))
            }
            if v.hasUserValue { throw unexpected }
            return .null
        case .gdWhen where v.hasInt64Value: return .timestamp(microseconds: v.int64Value)
        case .georssPoint where v.hasPointValue:
            return .geoPoint(latitude: v.pointValue.x, longitude: v.pointValue.y)
        case .blob where v.hasStringValue, .bytestring where v.hasStringValue: return .bytes([UInt8](v.stringValue))
        case .text where v.hasStringValue: return try string(v.stringValue, property)
        case .entityProto where v.hasStringValue: return .map(try fields(try Entity(serializedBytes: v.stringValue)))
        default: throw unexpected
        }
    }

    static func string(_ bytes: Data, _ property: Property) throws -> FirestoreValue {
        guard let string = String(bytes: bytes, encoding: .utf8) else {
            throw Failure(description: "property \"\(property.name)\" holds a string that is not UTF-8")
        }
        return .string(string)
    }
}

/// Where two documents differ, said in words naming who gives each; nil when they are the same (doubles the same
/// to the bit).
private struct Difference {
    var found: String
    var expected: String

    static let decoderAndOracle = Difference(found: "the decoder", expected: "the generated code")

    func of(_ found: FirestoreDocument, _ expected: FirestoreDocument) -> String? {
        if found.segments != expected.segments {
            return "the path: \(self.found) gives \(found.segments), \(self.expected) \(expected.segments)"
        }
        return of(found.fields, expected.fields, at: expected.path)
    }

    func of(_ found: [FirestoreField], _ expected: [FirestoreField], at place: String) -> String? {
        guard found.map(\.name) == expected.map(\.name) else {
            return
                "\(place): \(self.found) gives the fields \(found.map(\.name)), \(self.expected) \(expected.map(\.name))"
        }
        for (f, e) in zip(found, expected) {
            if let difference = of(f.value, e.value, at: "\(place).\(e.name)") { return difference }
        }
        return nil
    }

    func of(_ found: FirestoreValue, _ expected: FirestoreValue, at place: String) -> String? {
        switch (found, expected) {
        case (.double(let f), .double(let e)) where f.bitPattern == e.bitPattern: return nil
        case (.geoPoint(let fx, let fy), .geoPoint(let ex, let ey))
        where fx.bitPattern == ex.bitPattern && fy.bitPattern == ey.bitPattern:
            return nil
        case (.array(let f), .array(let e)) where f.count == e.count:
            for (i, (fv, ev)) in zip(f, e).enumerated() {
                if let difference = of(fv, ev, at: "\(place)[\(i)]") { return difference }
            }
            return nil
        case (.map(let f), .map(let e)): return of(f, e, at: place)
        case (.double, _), (.geoPoint, _), (.array, _): break
        default: if found == expected { return nil }
        }
        return "\(place): \(self.found) gives \(found), \(self.expected) \(expected)"
    }
}

/// The records of a LevelDB log read from its framing alone (no checksums): 32 KiB blocks, a zero trailer under
/// 7 bytes, each fragment a 7-byte header (checksum, length, type: 1 whole, 2 first, 3 middle, 4 last) and its data;
/// a zero header is a block's unwritten rest.
private func framedRecords(_ bytes: [UInt8]) -> [(start: Int, bytes: [UInt8])] {
    var records: [(start: Int, bytes: [UInt8])] = []
    var offset = 0
    var current: (start: Int, bytes: [UInt8])?
    while offset + 7 <= bytes.count {
        let left = 32768 - offset % 32768
        let length = Int(bytes[offset + 4]) + 256 * Int(bytes[offset + 5])
        let type = bytes[offset + 6]
        if left < 7 || type == 0 {
            offset += left
            continue
        }
        let data = Array(bytes[(offset + 7)..<min(offset + 7 + length, bytes.count)])
        switch type {
        case 1: records.append((offset, data))
        case 2: current = (offset, data)
        default: current?.bytes += data
        }
        if type == 4, let record = current {
            records.append(record)
            current = nil
        }
        offset += 7 + length
    }
    return records
}

private enum PathID {
    case id(Int64)
    case name(String)
}

private func element(_ type: String, _ id: PathID) -> StorageOnestoreV3_Path.Element {
    .with {
        $0.type = type
        switch id {
        case .id(let number): $0.id = number
        case .name(let name): $0.name = name
        }
    }
}

private func key(_ elements: (String, PathID)...) -> StorageOnestoreV3_Reference {
    .with {
        $0.app = "dev~demo-project"
        $0.path = .with { $0.element = elements.map { element($0.0, $0.1) } }
    }
}

private func reference(_ elements: (String, PathID)...) -> PropertyValue.ReferenceValue {
    .with {
        $0.app = "dev~demo-project"
        $0.pathElement = elements.map { type, id in
            PropertyValue.ReferenceValue.PathElement.with {
                $0.type = type
                switch id {
                case .id(let number): $0.id = number
                case .name(let name): $0.name = name
                }
            }
        }
    }
}

private func string(_ text: String) -> PropertyValue { .with { $0.stringValue = Data(text.utf8) } }

/// A property of `meaning`; in an array when `multiple`.
private func property(
    _ name: String, _ meaning: Property.Meaning, multiple: Bool = false, _ value: PropertyValue = PropertyValue()
) -> Property {
    .with {
        $0.name = name
        $0.meaning = meaning
        $0.multiple = multiple
        $0.value = value
    }
}

/// A property without a meaning, as Firestore writes its plain values.
private func property(_ name: String, multiple: Bool = false, _ value: PropertyValue = PropertyValue()) -> Property {
    .with {
        $0.name = name
        $0.multiple = multiple
        $0.value = value
    }
}
