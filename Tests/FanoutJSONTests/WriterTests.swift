import Testing

@testable import FanoutJSON

@Suite("JSONWriter")
struct WriterTests {
    let sample: JSONValue = [
        "zeta": [3, 2.5, "x"], "alpha": ["b": true, "a": .null], "Beta": "quote\" and \\ slash /", "émoji": "🎉",
        "": [],
    ]

    @Test("canonical compact output sorts keys by UTF-8 bytes")
    func canonical() {
        #expect(
            JSONWriter().write(sample)
                == #"{"":[],"Beta":"quote\" and \\ slash /","alpha":{"a":null,"b":true},"zeta":[3,2.5,"x"],"émoji":"🎉"}"#
        )
    }

    @Test("unsorted output keeps member order")
    func unsorted() {
        #expect(JSONWriter(sortKeys: false).write(["b": 1, "a": 2]) == #"{"b":1,"a":2}"#)
    }

    @Test("pretty output uses 2-space indentation")
    func pretty() {
        let value: JSONValue = ["b": [1, ["c": "d"]], "a": [:], "e": []]
        let expected = """
            {
              "a": {},
              "b": [
                1,
                {
                  "c": "d"
                }
              ],
              "e": []
            }
            """
        #expect(JSONWriter(pretty: true).write(value) == expected)
        #expect(JSONWriter(pretty: true).write(1) == "1")
    }

    @Test("strings are escaped minimally")
    func escaping() {
        #expect(JSONWriter.quoted("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(JSONWriter.quoted("\n\t\r\u{8}\u{C}") == #""\n\t\r\b\f""#)
        #expect(JSONWriter.quoted("\u{0}\u{1}\u{1F}\u{7F}") == "\"\\u0000\\u0001\\u001f\u{7F}\"")
        #expect(JSONWriter.quoted("é日🎉\u{2028}") == "\"é日🎉\u{2028}\"")
        #expect(JSONWriter.quoted("") == #""""#)
    }

    @Test("numbers: integers as digits, doubles shortest round-trip, non-finite as null")
    func numbers() {
        let writer = JSONWriter()
        #expect(writer.write(.number(JSONNumber(Int64.min))) == "-9223372036854775808")
        #expect(writer.write(.number(JSONNumber(0))) == "0")
        #expect(writer.write(.number(JSONNumber(1490119356.786182))) == "1490119356.786182")
        #expect(writer.write(.number(JSONNumber(374.9999999999999))) == "374.9999999999999")
        #expect(writer.write(.number(JSONNumber(0.1))) == "0.1")
        #expect(writer.write(.number(JSONNumber(1e-5))) == "1e-05")
        #expect(writer.write(.number(JSONNumber(1e300))) == "1e+300")
        #expect(writer.write(.number(JSONNumber(2.0))) == "2.0")
        #expect(
            writer.write([.number(JSONNumber(.infinity)), .number(JSONNumber(-.infinity)), .number(JSONNumber(.nan))])
                == "[null,null,null]")
        #expect(JSONWriter.formatted(JSONNumber(double: 3, int64: 3)) == "3")
    }

    @Test("hand-built duplicate keys: canonical output keeps the last")
    func duplicates() {
        let value: JSONValue = .object([(key: "b", value: 1), (key: "a", value: 2), (key: "b", value: 3)])
        #expect(JSONWriter().write(value) == #"{"a":2,"b":3}"#)
        #expect(JSONWriter(sortKeys: false).write(value) == #"{"b":1,"a":2,"b":3}"#)
    }

    @Test("round trip: parse(write(v)) == v", arguments: [false, true])
    func roundTrip(pretty: Bool) throws {
        let values: [JSONValue] = [
            sample, .null, true, "", "\u{0}\u{1F}\"\\", 0, -1, 1.5, 1e-300, 123456789.123, [[[[]]]], [:],
            ["nested": ["deeper": ["deepest": [1, 2, ["x": "y"]]]]],
            .number(JSONNumber(Int64.max)), .number(JSONNumber(-0.0)),
            .number(JSONNumber(Double.leastNonzeroMagnitude)),
            .number(JSONNumber(1.7976931348623157e308)), "\u{FFFD}\u{10FFFF}",
        ]
        let writer = JSONWriter(pretty: pretty, sortKeys: false)
        for value in values {
            let text = writer.write(value)
            #expect(try JSONValue.parse(text) == value, "\(text)")
        }
    }

    @Test("output is deterministic and canonical form is stable")
    func deterministic() throws {
        let text = #"{"b":[1,2.50,-0.0,1E2],"a":"\u00e9\/","c":{"y":1,"x":2}}"#
        let first = JSONWriter().write(try JSONValue.parse(text))
        #expect(first == #"{"a":"é/","b":[1,2.5,-0.0,100.0],"c":{"x":2,"y":1}}"#)
        for _ in 0..<3 {
            #expect(JSONWriter().write(try JSONValue.parse(first)) == first)
        }
    }

    @Test("escaping eight bytes at a time gives what escaping byte by byte does, at every length and place")
    func escapingByWordsMatchesBytes() {
        // Every byte that needs an escape, at every offset of strings of up to 40 bytes around plain ones.
        let specials: [UInt8] = [0x00, 0x01, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xFF, 0x20, 0x21, 0x5B, 0x5D]
        for length in 0..<40 {
            for place in 0..<max(length, 1) {
                for special in specials {
                    var bytes = (0..<length).map { UInt8(0x61 + $0 % 26) }
                    if length > 0 { bytes[place] = special }
                    var expected: [UInt8] = []
                    for byte in bytes {
                        switch byte {
                        case 0x22: expected += Array(#"\""#.utf8)
                        case 0x5C: expected += Array(#"\\"#.utf8)
                        case 0x0A: expected += Array(#"\n"#.utf8)
                        case 0x09: expected += Array(#"\t"#.utf8)
                        case 0x0D: expected += Array(#"\r"#.utf8)
                        case 0x08: expected += Array(#"\b"#.utf8)
                        case 0x0C: expected += Array(#"\f"#.utf8)
                        case ..<0x20:
                            let hex = Array("0123456789abcdef".utf8)
                            expected += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                        default: expected.append(byte)
                        }
                    }
                    var out: [UInt8] = []
                    bytes.withUnsafeBytes { JSONWriter.appendEscaped($0, to: &out) }
                    #expect(out == expected, "length \(length), byte \(special) at \(place)")
                }
            }
        }
    }
}
