import FanoutTestSupport
import Foundation
import Testing

/// Google's own reading of Cloud Firestore exports as the oracle of Fanout's (docs/firestore.md "Where the files
/// come from"): `scripts/test/firestore-decode` reads an export with a LevelDB log reader of its own and App Engine's
/// `EntityProto` code (`appengine-python-standard`, which `make firestore-deps` installs in .build/firestore-venv;
/// `FANOUT_FIRESTORE_PYTHON` names another Python that has it). On the five real exports it must write their
/// `decoded.json`, which proves it is Google's reading, and `fanout documents` must read what it reads.
/// `googleReadsAsFanout(exportFolder:)` is that check for any export, such as the ones Fanout writes.
@Suite struct FirestoreGoogleReaderTests {
    /// The Python with `appengine-python-standard`: `FANOUT_FIRESTORE_PYTHON`, else `make firestore-deps`'s.
    static let pythonPath =
        ProcessInfo.processInfo.environment["FANOUT_FIRESTORE_PYTHON"]
        ?? CLI.repository.appendingPathComponent(".build/firestore-venv/bin/python").path
    static let script = CLI.repository.appendingPathComponent("scripts/test/firestore-decode").path

    /// Whether Google's reader can run here: a plain `swift test` on a machine with only Swift skips the tests
    /// that need it, with the reason; `make test` installs it.
    static let hasGoogleReader = FileManager.default.isExecutableFile(atPath: pythonPath)

    /// The trait of every test that runs Google's reader.
    static let needsGoogleReader: ConditionTrait = .enabled(
        if: hasGoogleReader, "needs appengine-python-standard: make firestore-deps (or FANOUT_FIRESTORE_PYTHON)")

    static let needsRealExports: ConditionTrait = .enabled(
        if: FirestoreCLITests.names.count == 5, "needs the five real exports in ../shared/testdata/exports/firestore")
    static let needsTriply: ConditionTrait = .enabled(
        if: FirestoreCLITests.names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply")

    struct ReaderFailure: Error, CustomStringConvertible {
        var description: String
    }

    @Test(needsGoogleReader, needsRealExports)
    func scriptReadsEveryRealExportAsItsDecodedJSON() throws {
        for name in FirestoreCLITests.names {
            let ours = try Self.googleDocuments(FirestoreCLITests.export(name))
            let decoded = try JSON.parse(
                Data(contentsOf: FirestoreCLITests.exports.appendingPathComponent("\(name)/decoded.json")))
            let theirs = try #require(decoded.member("documents"), "\(name): decoded.json has its documents")
            let differences = JSON.differences(ours, theirs, at: "", names: ("the script", "decoded.json"))
            Self.record(differences, "\(name): the script's documents and decoded.json's differ")
        }
    }

    @Test(needsGoogleReader, needsRealExports)
    func fanoutReadsEveryRealExportAsGoogleDoes() throws {
        for name in FirestoreCLITests.names {
            let documents = try Self.googleReadsAsFanout(exportFolder: FirestoreCLITests.export(name))
            #expect(documents.objectMembers?.isEmpty == false, "\(name) has documents")
        }
    }

    /// The real exports fit in one block; a record of 98,280 bytes in three fragments (FIRST, MIDDLE, LAST) that
    /// ends 3 bytes before its block does (a zero trailer follows), then Triply's records, is read by the script as
    /// Triply's decoded.json and that record, and by `fanout documents` as by the script.
    @Test(needsGoogleReader, needsTriply)
    func recordsAcrossBlocksAreReadAsFanoutReadsThem() throws {
        let triply = FirestoreCLITests.export("triply")
        let records = try Self.fullRecords(
            Array(
                Data(contentsOf: URL(fileURLWithPath: triply + "/firestore_export/all_namespaces/all_kinds/output-0"))))
        // Fragments of 32,761, 32,761 and 32,758 bytes: the last ends 3 bytes before its block does.
        let size = 3 * Self.block - 3 - 3 * Self.header
        let overhead =
            Self.textEntity("fragmented", "big", text: String(repeating: "x", count: size - 100)).count - (size - 100)
        let text = String(repeating: "x", count: size - overhead)
        try #require(Self.textEntity("fragmented", "big", text: text).count == size)
        let log = Self.leveldbLog([Self.textEntity("fragmented", "big", text: text)] + records)
        #expect(log.count > 3 * Self.block && Array(log[3 * Self.block - 3..<3 * Self.block]) == [0, 0, 0])
        let folder = try TemporaryFolder("firestore-google")
        let file = folder.url("output-0")
        try Data(log).write(to: file)

        let ours = try Self.googleDocuments(file.path)
        let decoded = try JSON.parse(
            Data(contentsOf: FirestoreCLITests.exports.appendingPathComponent("triply/decoded.json")))
        let expected = try #require(decoded.member("documents")).adding(
            "fragmented/big", .object([(key: "text", value: .string(text))]))
        let differences = JSON.differences(ours, expected, at: "", names: ("the script", "Triply's and the record"))
        Self.record(differences, "the script's documents are not Triply's and the fragmented record")
        try Self.googleReadsAsFanout(exportFolder: file.path)
    }

    @Test(needsGoogleReader, needsTriply)
    func scriptRefusesARecordWhoseChecksumIsWrong() throws {
        var bytes = try Data(
            contentsOf: URL(fileURLWithPath: FirestoreCLITests.export("triply"))
                .appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0"))
        bytes[100] ^= 0x20
        let folder = try TemporaryFolder("firestore-google")
        try bytes.write(to: folder.url("output-0"))
        let result = try runProcess(URL(fileURLWithPath: Self.pythonPath), [Self.script, folder.url("output-0").path])
        #expect(result.code == 1 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("output-0: byte 0: a record's checksum is wrong"), "\(result.stderr)")
    }

    // MARK: - The oracle

    /// Checks that `fanout documents` reads the export at `exportFolder` (an emulator folder, a managed export's
    /// folder or one `output-N` file, by an absolute path) as Google's reader does: the same documents, each with
    /// the same fields, every value of the same type (an integer is no double, nor a boolean) and the same value
    /// (doubles to the bit, strings and keys to the byte, timestamps to the microsecond however many fraction
    /// digits each writes). Records an issue for each difference, naming the document, the field and both values.
    /// Returns the documents as Google's reader read them (an object of fields by document path).
    @discardableResult
    static func googleReadsAsFanout(
        exportFolder: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSON {
        let path = URL(fileURLWithPath: exportFolder).path
        let theirs = try googleDocuments(path)
        let cli = try CLI()
        let result = try cli.run("documents", path)
        guard result.code == 0 else {
            throw ReaderFailure(description: "fanout documents \(path) exited \(result.code): \(result.stderr)")
        }
        var members: [(key: String, value: JSON)] = []
        for (number, line) in result.stdout.split(separator: "\n").enumerated() {
            let object = try JSON.parse(Data(line.utf8))
            guard case .string(let document)? = object.member("path"), let fields = object.member("fields"),
                object.objectMembers?.count == 2
            else {
                throw ReaderFailure(description: "line \(number + 1) of fanout documents \(path): \(line)")
            }
            members.append((key: document, value: fields))
        }
        let ours = JSON.object(members)
        let sorted = try #require(
            ours.sortedObject(), "fanout documents lists each document once", sourceLocation: sourceLocation)
        let differences = JSON.differences(
            sorted.normalized(), theirs.normalized(), at: "", names: ("fanout documents", "Google's reader"))
        record(differences, "fanout documents \(path) and Google's reader differ", sourceLocation: sourceLocation)
        return theirs
    }

    /// One issue for all the `differences`, one a line under `headline`; none when there are none.
    static func record(
        _ differences: [String], _ headline: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !differences.isEmpty else { return }
        Issue.record(
            "\(headline) (\(differences.count)):\n\(differences.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    /// The documents of `scripts/test/firestore-decode path`: an object of each document's fields by its path.
    static func googleDocuments(_ path: String) throws -> JSON {
        guard hasGoogleReader else {
            throw ReaderFailure(description: "no Python at \(pythonPath): make firestore-deps")
        }
        let result = try runProcess(URL(fileURLWithPath: pythonPath), [script, path])
        guard result.code == 0 else {
            throw ReaderFailure(description: "firestore-decode \(path) exited \(result.code): \(result.stderr)")
        }
        let output = try JSON.parse(result.stdoutData)
        guard let documents = output.member("documents"), documents.objectMembers != nil else {
            throw ReaderFailure(
                description: "firestore-decode \(path) wrote no documents: \(result.stdout.prefix(200))")
        }
        return documents
    }

    // MARK: - LevelDB logs and entities, for the test of records across blocks

    static let block = 32 * 1024
    static let header = 7

    /// The records of a log file of FULL records (one block's worth, as the real exports are).
    static func fullRecords(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var records: [[UInt8]] = [], at = 0
        while at + header <= bytes.count {
            let length = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8
            guard bytes[at + 6] == 1, at + header + length <= bytes.count else {
                throw ReaderFailure(description: "byte \(at): not a FULL record")
            }
            records.append(Array(bytes[at + header..<at + header + length]))
            at += header + length
        }
        return records
    }

    /// `records` as LevelDB's log writer writes them: fragments that fill each 32 KiB block, a zero trailer where
    /// fewer than 7 bytes are left, each fragment's header a masked CRC-32C of its type and data.
    static func leveldbLog(_ records: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for record in records {
            var rest = record[...], first = true
            while true {
                let left = block - out.count % block
                if left < header {
                    out += [UInt8](repeating: 0, count: left)
                    continue
                }
                let count = min(rest.count, left - header)
                let last = count == rest.count
                let type: UInt8 = first ? (last ? 1 : 2) : (last ? 4 : 3)
                let fragment = Array(rest.prefix(count))
                let crc = crc32c([type] + fragment)
                let stored = ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
                out += (0..<4).map { UInt8(truncatingIfNeeded: stored >> (8 * $0)) }
                out += [UInt8(count & 0xFF), UInt8(count >> 8), type] + fragment
                rest = rest.dropFirst(count)
                first = false
                if last { break }
            }
        }
        return out
    }

    static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// An `EntityProto` as the emulator writes one: the key (13: app 13, path 14 of element groups 1 with type 2
    /// and name 4), the entity group (16), and one unindexed property (15) of meaning TEXT (15) holding `text`.
    static func textEntity(_ collection: String, _ id: String, text: String) -> [UInt8] {
        func varint(_ value: Int) -> [UInt8] {
            var value = value, out: [UInt8] = []
            while value >= 0x80 {
                out.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            return out + [UInt8(value)]
        }
        func field(_ tag: [UInt8], _ bytes: [UInt8]) -> [UInt8] { tag + varint(bytes.count) + bytes }
        let path = [0x0B] + field([0x12], Array(collection.utf8)) + field([0x22], Array(id.utf8)) + [0x0C]
        let key = field([0x6A], Array("dev~fanout-test".utf8)) + field([0x72], path)
        let value = field([0x1A], Array(text.utf8))
        let property = [0x08, 15] + field([0x1A], Array("text".utf8)) + [0x20, 0] + field([0x2A], value)
        return field([0x6A], key) + field([0x82, 0x01], path) + field([0x7A], property)
    }
}

extension FirestoreGoogleReaderTests {
    /// A JSON value as written, stricter than Foundation's `JSONSerialization`, whose numbers make `1`, `1.0` and
    /// `true` equal: an integer, a double and a boolean are different values, doubles are equal to the bit, strings
    /// and object keys to the byte (`String`'s `==` would make a composed and a decomposed accent equal), object
    /// members are sorted by their keys' bytes.
    indirect enum JSON: Equatable, CustomStringConvertible {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case string(String)
        case array([JSON])
        case object([(key: String, value: JSON)])
        /// A `{"__timestamp__": "RFC 3339"}` value once `normalized`: microseconds since 1970.
        case timestamp(microseconds: Int64)

        static func == (a: JSON, b: JSON) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.bool(let x), .bool(let y)): return x == y
            case (.integer(let x), .integer(let y)): return x == y
            case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
            case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
            case (.array(let x), .array(let y)): return x == y
            case (.object(let x), .object(let y)):
                return x.count == y.count
                    && zip(x, y).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
            case (.timestamp(let x), .timestamp(let y)): return x == y
            default: return false
            }
        }

        var description: String {
            switch self {
            case .null: return "null"
            case .bool(let value): return "\(value)"
            case .integer(let value): return "\(value)"
            case .double(let value): return "\(value)"
            case .string(let value): return value.debugDescription
            case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
            case .object(let members):
                return "{" + members.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
            case .timestamp(let microseconds): return "{\"__timestamp__\": \(microseconds) µs}"
            }
        }

        var objectMembers: [(key: String, value: JSON)]? {
            if case .object(let members) = self { return members }
            return nil
        }

        func member(_ key: String) -> JSON? {
            objectMembers?.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
        }

        /// The object with its members sorted by their keys' bytes; nil when a key is there twice.
        func sortedObject() -> JSON? {
            guard let members = objectMembers else { return self }
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where a.key.utf8.elementsEqual(b.key.utf8) { return nil }
            return .object(sorted)
        }

        /// The object with `value` at `key` too.
        func adding(_ key: String, _ value: JSON) -> JSON {
            .object((objectMembers ?? []) + [(key: key, value: value)]).sortedObject()!
        }

        /// Timestamps as microseconds since 1970 (a text that is no RFC 3339 time in UTC stays as it is, and so
        /// differs).
        func normalized() -> JSON {
            switch self {
            case .array(let elements): return .array(elements.map { $0.normalized() })
            case .object(let members):
                if members.count == 1, members[0].key == "__timestamp__", case .string(let text) = members[0].value,
                    let microseconds = JSON.microseconds(text)
                {
                    return .timestamp(microseconds: microseconds)
                }
                return .object(members.map { (key: $0.key, value: $0.value.normalized()) })
            default: return self
            }
        }

        /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` as microseconds since 1970, with no digit past the sixth but zeros.
        static func microseconds(_ text: String) -> Int64? {
            let b = Array(text.utf8)
            guard b.count >= 20, b.last == UInt8(ascii: "Z"), b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
                b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":")
            else { return nil }
            func number(_ range: Range<Int>) -> Int64? {
                guard b[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                return b[range].reduce(0) { $0 * 10 + Int64($1 - 0x30) }
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
            else { return nil }
            var nanoseconds: Int64 = 0
            if b.count > 20 {
                guard b[19] == UInt8(ascii: "."), (1...9).contains(b.count - 21),
                    let fraction = number(20..<b.count - 1)
                else { return nil }
                nanoseconds =
                    fraction
                    * [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000][
                        9 - (b.count - 21)]
                guard nanoseconds % 1000 == 0 else { return nil }
            } else if b[19] != UInt8(ascii: "Z") {
                return nil
            }
            // Days since 1970-01-01 of the proleptic Gregorian date (Howard Hinnant's days_from_civil).
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return (days * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000 + nanoseconds / 1000
        }

        /// Every place where `a` and `b` differ, below `path`: an object's member that one lacks, or a value that
        /// differs, with both values, the first writer named `names.0`, the second `names.1`.
        static func differences(_ a: JSON, _ b: JSON, at path: String, names: (String, String)) -> [String] {
            switch (a, b) {
            case (.object(let x), .object(let y)):
                var found: [String] = [], i = 0, j = 0
                while i < x.count || j < y.count {
                    let order = i == x.count ? 1 : j == y.count ? -1 : compare(x[i].key, y[j].key)
                    if order < 0 {
                        found.append("\(path)/\(x[i].key): only in \(names.0)'s: \(x[i].value)")
                        i += 1
                    } else if order > 0 {
                        found.append("\(path)/\(y[j].key): only in \(names.1)'s: \(y[j].value)")
                        j += 1
                    } else {
                        found += differences(x[i].value, y[j].value, at: "\(path)/\(x[i].key)", names: names)
                        i += 1
                        j += 1
                    }
                }
                return found
            case (.array(let x), .array(let y)) where x.count == y.count:
                return zip(x, y).enumerated().flatMap {
                    differences($1.0, $1.1, at: "\(path)[\($0)]", names: names)
                }
            default:
                return a == b ? [] : ["\(path): \(names.0) \(a), \(names.1) \(b)"]
            }
        }

        /// -1, 0 or 1 as `a`'s bytes sort before, as or after `b`'s.
        static func compare(_ a: String, _ b: String) -> Int {
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        }

        struct Malformed: Error, CustomStringConvertible {
            var description: String
        }

        /// Parses JSON text (UTF-8); numbers with a fraction or an exponent are doubles, the others integers.
        static func parse(_ data: Data) throws -> JSON {
            var parser = Parser(bytes: Array(data))
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.at == parser.bytes.count else { throw parser.failure("text after the value") }
            return value
        }

        private struct Parser {
            let bytes: [UInt8]
            var at = 0

            /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`: the byte each stands for.
            static let escapes: [UInt8: UInt8] = [
                0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09,
            ]

            func failure(_ what: String) -> Malformed { Malformed(description: "byte \(at): \(what)") }

            mutating func skipSpace() {
                while at < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[at]) { at += 1 }
            }

            mutating func take(_ character: Character) -> Bool {
                skipSpace()
                guard at < bytes.count, bytes[at] == character.asciiValue! else { return false }
                at += 1
                return true
            }

            mutating func value(depth: Int) throws -> JSON {
                skipSpace()
                guard at < bytes.count, depth < 200 else { throw failure("no value") }
                switch bytes[at] {
                case UInt8(ascii: "{"):
                    at += 1
                    var members: [(key: String, value: JSON)] = []
                    if take("}") { return .object(members) }
                    repeat {
                        skipSpace()
                        let key = try string()
                        guard take(":") else { throw failure("no colon") }
                        members.append((key: key, value: try value(depth: depth + 1)))
                    } while take(",")
                    guard take("}") else { throw failure("an object not closed") }
                    guard let sorted = JSON.object(members).sortedObject() else { throw failure("a key twice") }
                    return sorted
                case UInt8(ascii: "["):
                    at += 1
                    var elements: [JSON] = []
                    if take("]") { return .array(elements) }
                    repeat { elements.append(try value(depth: depth + 1)) } while take(",")
                    guard take("]") else { throw failure("an array not closed") }
                    return .array(elements)
                case UInt8(ascii: "\""): return .string(try string())
                case UInt8(ascii: "t"): return try literal("true", .bool(true))
                case UInt8(ascii: "f"): return try literal("false", .bool(false))
                case UInt8(ascii: "n"): return try literal("null", .null)
                default:
                    let start = at
                    while at < bytes.count, Array("+-.eE0123456789".utf8).contains(bytes[at]) { at += 1 }
                    let token = String(decoding: bytes[start..<at], as: UTF8.self)
                    if token.contains(where: { ".eE".contains($0) }), let double = Double(token), double.isFinite {
                        return .double(double)
                    }
                    guard let integer = Int64(token) else { throw failure("not a number: \(token)") }
                    return .integer(integer)
                }
            }

            mutating func literal(_ word: String, _ value: JSON) throws -> JSON {
                guard bytes[at...].starts(with: word.utf8) else { throw failure("not \(word)") }
                at += word.utf8.count
                return value
            }

            mutating func hex4() throws -> UInt32 {
                guard at + 4 <= bytes.count,
                    let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
                else { throw failure("a bad \\u escape") }
                at += 4
                return value
            }

            mutating func string() throws -> String {
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("no string") }
                at += 1
                var out: [UInt8] = []
                while true {
                    guard at < bytes.count else { throw failure("a string not closed") }
                    let byte = bytes[at]
                    at += 1
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard let text = String(validating: out, as: UTF8.self) else { throw failure("not UTF-8") }
                        return text
                    case 0..<0x20: throw failure("a control character in a string")
                    case UInt8(ascii: "\\"):
                        guard at < bytes.count else { throw failure("a string not closed") }
                        let escape = bytes[at]
                        at += 1
                        if let replacement = Self.escapes[escape] {
                            out.append(replacement)
                            continue
                        }
                        guard escape == UInt8(ascii: "u") else { throw failure("an unknown escape") }
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard bytes[at...].starts(with: Array("\\u".utf8)) else {
                                throw failure("a lone surrogate")
                            }
                            at += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate") }
                        out += Array(String(Character(unicode)).utf8)
                    default: out.append(byte)
                    }
                }
            }
        }
    }
}
