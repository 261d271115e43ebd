import Testing

@testable import FanoutJSON

@Suite("JSONValue")
struct ValueTests {
    @Test("parses every kind of value")
    func kinds() throws {
        let value = try JSONValue.parse(
            #" {"s": "x", "n": -1.25, "i": 10, "t": true, "f": false, "z": null, "a": [1, [2]], "o": {"k": "v"}} "#)
        let expected: JSONValue = [
            "s": "x", "n": -1.25, "i": 10, "t": true, "f": false, "z": .null, "a": [1, [2]], "o": ["k": "v"],
        ]
        #expect(value == expected)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.numberValue?.double == -1.25)
        #expect(value["i"]?.numberValue?.int64 == 10)
        #expect(value["t"]?.boolValue == true)
        #expect(value["z"]?.isNull == true)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["o"]?["k"] == "v")
        #expect(value["missing"] == nil)
        #expect(value["a"]?["k"] == nil)
        #expect(value.kind == .object)
        #expect(value.objectMembers?.map(\.key) == ["s", "n", "i", "t", "f", "z", "a", "o"])
    }

    @Test("member order is kept as written")
    func memberOrder() throws {
        let value = try JSONValue.parse(#"{"b": 1, "a": 2, "c": 3}"#)
        #expect(value.objectMembers?.map(\.key) == ["b", "a", "c"])
    }

    @Test("duplicate keys: the last value wins, at the first key's position")
    func duplicateKeys() throws {
        let value = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value == ["a": 3, "b": 2])
        #expect(value["a"] == 3)
        var many = "{"
        for index in 0..<20 { many += "\"k\(index % 10)\": \(index)," }
        many += "\"end\": true}"
        let big = try JSONValue.parse(many)
        #expect(big.objectMembers?.count == 11)
        #expect(big["k3"] == 13)
        #expect(big.objectMembers?.first?.key == "k0")
        // A hand-built object with duplicates: subscript returns the last.
        let built: JSONValue = .object([(key: "x", value: 1), (key: "x", value: 2)])
        #expect(built["x"] == 2)
    }

    @Test("keys and strings compare by UTF-8 bytes, not by Unicode equivalence")
    func byteComparison() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(JSONValue.string(composed) != JSONValue.string(decomposed))
        let value = try JSONValue.parse("{\"\(composed)\": 1, \"\(decomposed)\": 2}")
        #expect(value.objectMembers?.count == 2)
        #expect(value[composed] == 1)
        #expect(value[decomposed] == 2)
    }

    @Test("equality")
    func equality() {
        #expect(JSONValue.array([1, 2]) != JSONValue.array([2, 1]))
        #expect(JSONValue.object([(key: "a", value: 1)]) != JSONValue.object([(key: "b", value: 1)]))
        #expect(JSONValue.number(JSONNumber(1)) == JSONValue.number(JSONNumber(double: 1, int64: 1)))
        #expect(JSONValue.number(JSONNumber(1)) != JSONValue.number(JSONNumber(1.0)))
        #expect(JSONValue.null != JSONValue.bool(false))
        #expect(JSONValue.array([]) != JSONValue.object([]))
    }

    @Test("parse(String) and parse(bytes) agree")
    func stringAndBytes() throws {
        let text = #"{"emoji": "🎉", "list": [true, null]}"#
        #expect(try JSONValue.parse(text) == (try parse(Array(text.utf8))))
    }
}
