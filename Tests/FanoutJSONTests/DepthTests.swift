import Testing

@testable import FanoutJSON

@Suite("Deep nesting never crashes")
struct DepthTests {
    static let depth = 100_000

    @Test("100,000 unterminated '[' is an error, not a crash")
    func unterminated() {
        let bytes = [UInt8](repeating: 0x5B, count: Self.depth)
        let skipped = skipError(bytes)
        #expect(skipped?.message == "unexpected end of input")
        #expect(skipped?.offset == Self.depth)
        #expect(parseError(bytes) != nil)
    }

    @Test("100,000 '[' then 100,000 ']' is accepted by skipValue and by the pull API")
    func balancedArrays() throws {
        let bytes = [UInt8](repeating: 0x5B, count: Self.depth) + [UInt8](repeating: 0x5D, count: Self.depth)
        #expect(skipError(bytes) == nil)
        try withReader(bytes) { reader in
            for _ in 0..<(Self.depth - 1) {
                try reader.beginArray()
                #expect(try reader.nextElement())
            }
            try reader.beginArray()
            #expect(try reader.nextElement() == false)
            for _ in 0..<(Self.depth - 1) {
                #expect(try reader.nextElement() == false)
            }
            try reader.finish()
        }
    }

    @Test("deep alternating objects and arrays are validated with the bit stack")
    func alternating() {
        let levels = 50_000
        var bytes: [UInt8] = []
        for _ in 0..<levels { bytes += Array(#"{"k":["#.utf8) }
        bytes += Array("1".utf8)
        for _ in 0..<levels { bytes += Array("]}".utf8) }
        #expect(skipError(bytes) == nil)
        // Swap one closing pair deep inside: "]}" -> "}]" must be rejected.
        var wrong = bytes
        let middle = bytes.count - 2 * (levels / 2)
        wrong[middle] = 0x7D
        wrong[middle + 1] = 0x5D
        #expect(skipError(wrong)?.message == "expected ',' or ']' after array element")
    }

    @Test("JSONValue.parse accepts maximumDepth levels and rejects deeper input with an error")
    func treeDepthLimit() throws {
        let limit = JSONValue.maximumDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let value = try JSONValue.parse(ok)
        #expect(JSONWriter().write(value) == ok)
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = parseError(deep)
        #expect(error?.message == "nesting deeper than \(limit) levels is not supported by JSONValue")
        #expect(error?.offset == limit)
        let veryDeep = String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth)
        #expect(parseError(veryDeep) != nil)
    }

    @Test("JSONTestSuite's deep opening-bracket files")
    func suiteDeepFiles() throws {
        for name in ["n_structure_100000_opening_arrays.json", "n_structure_open_array_object.json"] {
            let bytes = try TestSuite.bytes(name)
            #expect(skipError(bytes) != nil, "\(name)")
            #expect(parseError(bytes) != nil, "\(name)")
        }
    }

    @Test("the writer and equality handle hand-built deep values without recursion")
    func deepHandBuiltValue() {
        // 20,000 levels: deep enough to overflow a recursive writer, shallow enough for Swift's own release.
        let levels = 20_000
        var value: JSONValue = .null
        for _ in 0..<levels { value = .array([value]) }
        let text = JSONWriter().write(value)
        #expect(text.utf8.count == 2 * levels + 4)
        #expect(value == value)
        #expect(skipError(text) == nil)
    }

    @Test("skipValue deeper than 64 levels inside open containers leaves the reader's own stack intact")
    func skipDeepInsideContainers() throws {
        var nested = ""
        for level in 0..<150 { nested += level % 2 == 0 ? #"{"k":"# : "[" }
        nested += "0"
        for level in (0..<150).reversed() { nested += level % 2 == 0 ? "}" : "]" }
        let text = #"{"outer": [{"skip": "# + nested + #", "keep": true}, 7]}"#
        try withReader(text) { reader in
            try reader.beginObject()
            #expect(try reader.nextKeyString() == "outer")
            try reader.beginArray()
            #expect(try reader.nextElement())
            try reader.beginObject()
            #expect(try reader.nextKeyString() == "skip")
            try reader.skipValue()
            #expect(try reader.nextKeyString() == "keep")
            #expect(try reader.readBool())
            #expect(try reader.nextKey() == nil)
            #expect(try reader.nextElement())
            #expect(try reader.readNumber().int64 == 7)
            #expect(try reader.nextElement() == false)
            #expect(try reader.nextKey() == nil)
            try reader.finish()
        }
        // A mismatched bracket at level 100 is still caught.
        var wrong = Array(text.utf8)
        let index = try #require(wrong.firstIndex(of: 0x30))  // the "0" at the bottom
        let closer = wrong.index(index, offsetBy: 50)
        wrong[closer] = wrong[closer] == 0x7D ? 0x5D : 0x7D
        #expect(skipError(wrong) != nil)
        #expect(parseError(wrong) != nil)
    }
}
