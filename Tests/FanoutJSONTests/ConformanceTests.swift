import Foundation
import Testing

@testable import FanoutJSON

/// The JSONTestSuite `test_parsing` files bundled with the tests.
enum TestSuite {
    static var directory: URL? {
        Bundle.module.url(forResource: "JSONTestSuite", withExtension: nil)?
            .appendingPathComponent("test_parsing", isDirectory: true)
    }

    static var fileNames: [String] {
        guard let directory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        let directory = try #require(directory)
        return Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

@Suite("JSONTestSuite conformance")
struct ConformanceTests {
    @Test("the bundled test_parsing folder is found and complete")
    func suiteIsPresent() {
        let names = TestSuite.fileNames
        #expect(names.count == 318)
        #expect(names.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(names.filter { $0.hasPrefix("n_") }.count == 188)
    }

    @Test("test_parsing file", arguments: TestSuite.fileNames)
    func file(_ name: String) throws {
        let bytes = try TestSuite.bytes(name)
        let parsed = parseError(bytes)
        let skipped = skipError(bytes)
        if name.hasPrefix("y_") {
            #expect(
                parsed == nil, "\(name): JSONValue.parse rejected it: \(parsed.map(String.init(describing:)) ?? "")")
            #expect(skipped == nil, "\(name): skipValue rejected it: \(skipped.map(String.init(describing:)) ?? "")")
        } else if name.hasPrefix("n_") {
            for (how, error) in [("JSONValue.parse", parsed), ("skipValue", skipped)] {
                guard let error else {
                    Issue.record("\(name): \(how) accepted invalid JSON")
                    continue
                }
                #expect(error.description.hasPrefix("invalid JSON at line "), "\(name): \(error)")
                #expect(error.description.contains(", column "), "\(name): \(error)")
                #expect(error.line >= 1 && error.column >= 1, "\(name): \(error)")
                #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name): \(error)")
            }
        } else {
            // i_: implementation-defined; both passes must agree (and not crash).
            #expect(
                (parsed == nil) == (skipped == nil),
                "\(name): parse \(String(describing: parsed)) vs skip \(String(describing: skipped))")
        }
    }

    @Test("implementation-defined files: the documented choices")
    func implementationDefined() throws {
        // A BOM at offset 0 is skipped.
        #expect(parseError(try TestSuite.bytes("i_structure_UTF-8_BOM_empty_object.json")) == nil)
        // Lone surrogate escapes are accepted (decoded to U+FFFD).
        #expect(parseError(try TestSuite.bytes("i_string_1st_surrogate_but_2nd_missing.json")) == nil)
        #expect(parseError(try TestSuite.bytes("i_object_key_lone_2nd_surrogate.json")) == nil)
        // Huge numbers are accepted.
        #expect(parseError(try TestSuite.bytes("i_number_huge_exp.json")) == nil)
        #expect(parseError(try TestSuite.bytes("i_number_too_big_neg_int.json")) == nil)
        // Invalid UTF-8 and non-UTF-8 encodings are rejected.
        for name in [
            "i_string_UTF-8_invalid_sequence.json", "i_string_UTF8_surrogate_U+D800.json",
            "i_string_overlong_sequence_2_bytes.json", "i_string_truncated-utf-8.json",
            "i_string_not_in_unicode_range.json", "i_string_iso_latin_1.json", "i_string_utf16LE_no_BOM.json",
        ] {
            let error = try #require(parseError(try TestSuite.bytes(name)), "\(name)")
            if name.hasPrefix("i_string_utf16") {
                continue
            }
            #expect(error.message == "invalid UTF-8 in string", "\(name): \(error)")
        }
        // 500 nested arrays are within JSONValue.maximumDepth.
        #expect(parseError(try TestSuite.bytes("i_structure_500_nested_arrays.json")) == nil)
    }
}
