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

    @Test func staysInBoundsOnBrokenInput() throws {
        for text in ["[\"abc", "{\"a\": [1, 2", "\"\\\\\\\"", "[[[[", "tru", "]]"] {
            let end = try? Self.end(Array(text.utf8), unchecked: true)
            #expect(end.map { $0 <= text.utf8.count } ?? true, "\(text)")
        }
    }
}
