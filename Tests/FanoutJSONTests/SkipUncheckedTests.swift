import CScan
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutJSON

/// `skipValueUnchecked`, the second pass's fast skip over a document already validated: it must end every valid
/// value exactly where `skipValue` does, and stay in bounds on anything else.
@Suite struct SkipUncheckedTests {
    /// The offset after skipping the top-level value with `skip`.
    static func end(_ bytes: [UInt8], unchecked: Bool) throws -> Int {
        try withReader(bytes) { reader in
            if unchecked { try reader.skipValueUnchecked() } else { try reader.skipValue() }
            return reader.offset
        }
    }

    @Test func endsEveryValidDocumentWhereSkipValueDoes() throws {
        let names = TestSuite.fileNames.filter { $0.hasPrefix("y_") }
        #expect(names.count == 95)
        for name in names {
            let bytes = try TestSuite.bytes(name)
            #expect(try Self.end(bytes, unchecked: true) == Self.end(bytes, unchecked: false), "\(name)")
        }
    }

    @Test func membersSkippedOneByOneLeaveTheReaderWhereItWouldBe() throws {
        let text = #"{"a": "x\\\"}{[", "b": [1, {"c": "]"}, -2.5e3], "c": true, "d": null, "e": "\\"}"#
        let keys = try withReader(text) { reader in
            var keys: [String] = []
            try reader.beginObject()
            while let key = try reader.nextKeyString() {
                keys.append(key)
                try reader.skipValueUnchecked()
            }
            try reader.finish()
            return keys
        }
        #expect(keys == ["a", "b", "c", "d", "e"])
    }

    /// The containers are skimmed 64 bytes a step (`CScan`), with carries from block to block for strings and
    /// backslash runs: random documents full of escapes, brackets inside strings and UTF-8, each placed at every
    /// offset of a block so that every byte falls on every boundary, must end where `skipValue` ends them.
    @Test func endsRandomDocumentsWhereSkipValueDoesAtEveryAlignment() throws {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<200 {
            var document: [UInt8] = []
            Self.appendValue(to: &document, depth: 0, &generator)
            for shift in 0..<65 {
                let bytes = [UInt8](repeating: 0x20, count: shift) + document + Array(" ,".utf8)
                #expect(try Self.end(bytes, unchecked: true) == shift + document.count)
                #expect(try Self.end(bytes, unchecked: false) == shift + document.count)
                Self.expectEveryWay(bytes, from: shift, endsAt: shift + document.count)
            }
        }
    }

    /// Expects every way of scanning (scalar, SSE2, AVX2, AVX-512; those the machine lacks fall back to another)
    /// to end the value at `start` of `bytes` at `end`, when it is a container.
    static func expectEveryWay(_ bytes: [UInt8], from start: Int, endsAt end: Int) {
        guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return }
        for way in [fanout_scan_scalar, fanout_scan_sse2, fanout_scan_avx2, fanout_scan_avx512] {
            let found = bytes.withUnsafeBufferPointer {
                fanout_skip_container_with($0.baseAddress!, $0.count, start, way)
            }
            #expect(found == end, "way \(way.rawValue)")
        }
    }

    /// Backslash runs of every length, ending on both sides of a block boundary: a run of odd length escapes the
    /// quote after it, one of even length does not.
    @Test func backslashRunsAcrossBlockBoundaries() throws {
        for run in 0..<70 {
            let backslashes = String(repeating: #"\\"#, count: run)
            for shift in 0..<65 {
                let text =
                    String(repeating: " ", count: shift) + #"["x"# + backslashes + #"\"]", "y"# + backslashes
                    + #"", "]"]"# + " ]]"
                let expected = text.utf8.count - 3
                #expect(try Self.end(Array(text.utf8), unchecked: true) == expected, "run \(run) shift \(shift)")
                #expect(try Self.end(Array(text.utf8), unchecked: false) == expected)
                Self.expectEveryWay(Array(text.utf8), from: shift, endsAt: expected)
            }
        }
    }

    /// A random JSON value: nested containers, strings with escapes (`\\`, `\"`, `\u`), brackets, quotes and
    /// multi-byte characters inside, numbers and literals.
    static func appendValue(to out: inout [UInt8], depth: Int, _ generator: inout SeededGenerator) {
        let choice = depth > 5 ? generator.next() % 3 : generator.next() % 6
        switch choice {
        case 0:
            appendString(to: &out, &generator)
        case 1:
            out += Array(["0", "-12.5e3", "true", "false", "null", "123456789"][Int(generator.next() % 6)].utf8)
        case 2:
            out += Array("[]".utf8)
        case 3, 4:
            out.append(UInt8(ascii: "{"))
            for member in 0..<Int(generator.next() % 6) {
                if member > 0 { out += Array(", ".utf8) }
                appendString(to: &out, &generator)
                out += Array(": ".utf8)
                appendValue(to: &out, depth: depth + 1, &generator)
            }
            out.append(UInt8(ascii: "}"))
        default:
            out.append(UInt8(ascii: "["))
            for element in 0..<Int(generator.next() % 6) {
                if element > 0 { out.append(UInt8(ascii: ",")) }
                appendValue(to: &out, depth: depth + 1, &generator)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    static func appendString(to out: inout [UInt8], _ generator: inout SeededGenerator) {
        let pieces = [
            #"\\"#, #"\""#, #"\\\""#, #"\u00e9"#, "{", "}", "[", "]", ",", ":", "é", "日本", "ab", "x", " ", #"\n"#,
        ]
        out.append(UInt8(ascii: "\""))
        for _ in 0..<Int(generator.next() % 40) {
            out += Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8)
        }
        out.append(UInt8(ascii: "\""))
    }

    @Test func staysInBoundsOnBrokenInput() throws {
        for text in ["[\"abc", "{\"a\": [1, 2", "\"\\\\\\\"", "[[[[", "tru", "]]"] {
            let end = try? Self.end(Array(text.utf8), unchecked: true)
            #expect(end.map { $0 <= text.utf8.count } ?? true, "\(text)")
        }
    }
}
