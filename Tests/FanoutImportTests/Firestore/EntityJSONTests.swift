import FanoutTestSupport
import Foundation
import SwiftProtobuf
import Testing

@testable import FanoutImport

/// `EntityJSON`, which writes a record's JSON straight from its bytes, against `EntityDecoder`'s documents written
/// by `DocumentJSON`: the same bytes for every record, in lines (types kept) and in the tree, or a record declined
/// (and then decoded by `EntityDecoder`). On the real exports and on random entities of every kind of value.
@Suite struct EntityJSONTests {
    /// What `EntityJSON` writes for `record`, typed and not, or nil where it declines it.
    private static func fast(_ record: [UInt8], typed: Bool) -> (path: [String], members: [UInt8])? {
        var segments = SegmentList()
        var members: [UInt8] = []
        var arrays: [UnsafeRawBufferPointer] = []
        let taken = record.withUnsafeBytes { raw in
            (try? EntityJSON.decode(raw, typed: typed, segments: &segments, members: &members, arrays: &arrays))
                != nil
        }
        guard taken else { return nil }
        return ((0..<segments.count).map(segments.string), members)
    }

    /// What `DocumentJSON` writes for `EntityDecoder`'s document of `record`; nil when it cannot read it.
    private static func slow(_ record: [UInt8], typed: Bool) -> (path: [String], members: [UInt8])? {
        guard let document = try? record.withUnsafeBytes({ try EntityDecoder.document($0) }) else { return nil }
        var members: [UInt8] = []
        DocumentJSON.appendMembers(document.fields, typed: typed, to: &members)
        return (document.segments, members)
    }

    /// Compares the two on `record`; returns whether `EntityJSON` took it.
    @discardableResult
    private static func compare(_ record: [UInt8], _ place: String) -> Bool {
        var taken = false
        for typed in [false, true] {
            guard let fast = fast(record, typed: typed) else {
                continue
            }
            taken = true
            guard let slow = slow(record, typed: typed) else {
                Issue.record("\(place): EntityJSON reads a record EntityDecoder refuses")
                continue
            }
            #expect(fast.path == slow.path, "\(place) typed \(typed)")
            #expect(
                String(decoding: fast.members, as: UTF8.self) == String(decoding: slow.members, as: UTF8.self),
                "\(place) typed \(typed)")
        }
        return taken
    }

    @Test(.enabled(if: !EntityOracleTests.exportNames.isEmpty, "needs the real exports"))
    func realExportsWriteAsTheirDocumentsDo() throws {
        for export in EntityOracleTests.exportNames {
            let path = EntityOracleTests.exports.appendingPathComponent("\(export)/export").path
            let documents = try FirestoreExport.read(path: path).documents
            var lines: [UInt8] = []
            for document in documents { DocumentJSON.appendLine(document, to: &lines) }
            #expect(
                Array(try FirestoreExport.lines(path: path).joined()) == lines, "\(export): fanout documents' lines")
            #expect(try FirestoreExport.tree(path: path) == DocumentJSON.tree(documents), "\(export): the tree")
            // Record by record: every one the real apps wrote is taken, and written as its document is.
            let folder = EntityOracleTests.outputs(of: export)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("output-")
            {
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
                let records = try bytes.withUnsafeBytes { raw in
                    var log = LevelDBLog(raw)
                    var scratch: [UInt8] = []
                    var records: [[UInt8]] = []
                    while let (_, data) = try log.next(scratch: &scratch) {
                        records.append(data.map { Array($0) } ?? scratch)
                    }
                    return records
                }
                for (n, record) in records.enumerated() {
                    #expect(Self.compare(record, "\(export)/\(file) record \(n)"), "\(export) record \(n) declined")
                }
            }
        }
    }

    @Test func randomEntitiesWriteAsTheirDocumentsDo() throws {
        var random = SeededGenerator(seed: 45)
        var taken = 0
        let count = 3000
        for n in 0..<count {
            let entity = RandomEntity.make(&random, depth: 0, keyed: true)
            let record: [UInt8] = try entity.serializedBytes()
            if Self.compare(record, "random entity \(n) (seed 45)") { taken += 1 }
        }
        // Most are taken (a value of two kinds or an array's elements apart are declined, by design), so the
        // comparison is of EntityJSON's own writing.
        #expect(taken > count / 2, "\(taken) of \(count) taken")
    }

    @Test func cutOrFlippedRecordsAreDeclinedOrReadAsTheDecoderReadsThem() throws {
        var random = SeededGenerator(seed: 7)
        for n in 0..<2000 {
            var record: [UInt8] = try RandomEntity.make(&random, depth: 0, keyed: true).serializedBytes()
            if random.next() % 2 == 0 {
                record.removeLast(Int(random.next() % UInt64(record.count)))
            } else {
                record[Int(random.next() % UInt64(record.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            Self.compare(record, "damaged entity \(n) (seed 7)")
        }
    }
}

/// Random `EntityProto`s: keys of names and numbers, and properties of every value Firestore writes (and a few
/// it does not), arrays whose elements are consecutive or apart, maps nested in maps.
private enum RandomEntity {
    typealias Entity = StorageOnestoreV3_EntityProto
    typealias Property = StorageOnestoreV3_Property
    typealias Value = StorageOnestoreV3_PropertyValue

    static let names = ["a", "uid", "likes", "tags", "caption", "x\"y", "tab\t", "é", "☕", "", "__name__", "a"]

    static func text(_ random: inout SeededGenerator) -> String {
        ["", "hi", "Café ☕", "quote\"back\\slash", "line\nbreak", "\u{1}ctl", "-KxY_abc", "users/u1"][random.next(8)]
    }

    static func make(_ random: inout SeededGenerator, depth: Int, keyed: Bool) -> Entity {
        var entity = Entity()
        if keyed {
            entity.key = .with {
                $0.app = "dev~demo"
                $0.path = .with {
                    $0.element = (0..<(1 + random.next(3))).map { _ in
                        .with { element in
                            element.type = ["users", "posts", "c\"ol", "ü"][random.next(4)]
                            if random.next(4) == 0 {
                                element.id = Int64(bitPattern: random.next()) >> random.next(63)
                            } else {
                                element.name = text(&random)
                            }
                        }
                    }
                }
            }
        }
        var properties: [Property] = []
        for _ in 0..<random.next(7) {
            let name = names[random.next(names.count)]
            if random.next(4) == 0 {
                // An array: its elements one after another, or with another property between.
                let elements = 1 + random.next(3)
                for _ in 0..<elements {
                    properties.append(property(&random, name: name, multiple: true, depth: depth))
                    if random.next(6) == 0 {
                        properties.append(property(&random, name: "between", multiple: false, depth: depth))
                    }
                }
            } else {
                properties.append(property(&random, name: name, multiple: false, depth: depth))
            }
        }
        let split = random.next(properties.count + 1)
        entity.property = Array(properties[..<split])
        entity.rawProperty = Array(properties[split...])
        return entity
    }

    static func property(_ random: inout SeededGenerator, name: String, multiple: Bool, depth: Int) -> Property {
        var property = Property()
        property.name = name
        if multiple { property.multiple = true }
        var value = Value()
        switch random.next(depth < 3 ? 13 : 12) {
        case 0: value.int64Value = Int64(bitPattern: random.next()) >> random.next(64)
        case 1: value.booleanValue = random.next(2) == 0
        case 2: value.stringValue = Data(text(&random).utf8)
        case 3:
            value.doubleValue = [0.5, -1.0, 1e300, .nan, .infinity, -.infinity, 3.0][random.next(7)]
        case 4:
            property.meaning = .gdWhen
            value.int64Value = Int64(random.next(400_000_000)) * 1_000_000 * 10 + Int64(random.next(1_000_000))
        case 5:
            property.meaning = [.blob, .bytestring][random.next(2)]
            value.stringValue = Data((0..<random.next(7)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 6:
            value.referenceValue = .with {
                $0.app = "dev~demo"
                $0.pathElement = (0..<(1 + random.next(2))).map { _ in
                    .with {
                        $0.type = "users"
                        if random.next(3) == 0 { $0.id = 5 } else { $0.name = text(&random) }
                    }
                }
            }
        case 7:
            if random.next(2) == 0 { property.meaning = .georssPoint }
            value.pointValue = .with {
                $0.x = 48.85
                $0.y = -2.35
            }
        case 8:
            property.meaning = .text
            value.stringValue = Data(text(&random).utf8)
        case 9: property.meaning = .emptyList
        case 10:
            // A value of two kinds, or a meaning Firestore does not give it: EntityDecoder's to refuse or read.
            value.int64Value = 3
            if random.next(2) == 0 {
                value.booleanValue = true
            } else {
                property.meaning = .gdWhen; value.stringValue = Data("x".utf8)
            }
        case 11: break  // no value at all: null
        default:
            property.meaning = .entityProto
            value.stringValue =
                (try? make(&random, depth: depth + 1, keyed: random.next(4) == 0).serializedData()) ?? Data()
        }
        property.value = value
        return property
    }
}
