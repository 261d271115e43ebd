import Testing

@testable import FanoutJSON

@Suite("Strings, escapes and UTF-8")
struct StringTests {
    private func decode(_ bytes: [UInt8]) throws -> String {
        try withReader(bytes) { reader in
            let value = try reader.readString()
            try reader.finish()
            return value
        }
    }

    private func decode(_ literal: String) throws -> String {
        try decode(Array(literal.utf8))
    }

    @Test("simple escapes")
    func escapes() throws {
        #expect(try decode(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{8}\u{C}\n\r\t")
        #expect(try decode(#""\u0041\u00e9\u20AC\u0000""#) == "A\u{E9}\u{20AC}\u{0}")
        #expect(try decode(#""""#) == "")
        #expect(
            try decode(#""plain ascii that is longer than eight bytes""#)
                == "plain ascii that is longer than eight bytes")
    }

    @Test("surrogate escapes: pairs decode to the scalar, lone surrogates to U+FFFD")
    func surrogates() throws {
        #expect(try decode(#""\uD834\uDD1E""#) == "\u{1D11E}")
        #expect(try decode(#""\ud83d\ude00!""#) == "\u{1F600}!")
        #expect(try decode(#""\uD800""#) == "\u{FFFD}")
        #expect(try decode(#""\uD800x""#) == "\u{FFFD}x")
        #expect(try decode(#""\uDC00""#) == "\u{FFFD}")
        #expect(try decode(#""\uD800\uD800\uDC00""#) == "\u{FFFD}\u{10000}")
        #expect(try decode(#""\uD800\n""#) == "\u{FFFD}\n")
        #expect(try decode(#""\uDD1E\uD834""#) == "\u{FFFD}\u{FFFD}")
        #expect(try decode(#""\uD800\u0041""#) == "\u{FFFD}A")
    }

    @Test("raw UTF-8 is accepted when well formed")
    func validUTF8() throws {
        let text = "héllo wörld — 日本語 🎉 \u{10FFFF} \u{7F}"
        #expect(try decode(Array(("\"" + text + "\"").utf8)) == text)
        let long = String(repeating: "日本語テキスト", count: 100)
        #expect(try decode(Array(("\"" + long + "\"").utf8)) == long)
    }

    @Test(
        "invalid UTF-8 in strings is rejected",
        arguments: [
            [0xC0, 0x80],  // overlong NUL
            [0xC1, 0xBF],  // overlong
            [0xE0, 0x80, 0x80],  // overlong 3-byte
            [0xE0, 0x9F, 0xBF],  // overlong 3-byte
            [0xF0, 0x80, 0x80, 0x80],  // overlong 4-byte
            [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4-byte
            [0xED, 0xA0, 0x80],  // U+D800 encoded
            [0xED, 0xBF, 0xBF],  // U+DFFF encoded
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0x80], [0xBF],  // invalid bytes
            [0xC3],  // truncated 2-byte
            [0xE2, 0x82],  // truncated 3-byte
            [0xF0, 0x9F, 0x98],  // truncated 4-byte
            [0xC3, 0x28],  // bad continuation
            [0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xE9, 0x61],  // Latin-1 after an ASCII run
        ] as [[UInt8]])
    func invalidUTF8(_ sequence: [UInt8]) {
        let bytes: [UInt8] = [0x5B, 0x22] + sequence + [0x22, 0x5D]  // ["…"]
        for error in [parseError(bytes), skipError(bytes)] {
            #expect(error?.message == "invalid UTF-8 in string", "\(sequence)")
        }
        let key: [UInt8] = [0x7B, 0x22] + sequence + [0x22, 0x3A, 0x31, 0x7D]  // {"…":1}
        #expect(parseError(key)?.message == "invalid UTF-8 in string", "\(sequence)")
    }

    @Test("the error offset points at the invalid sequence")
    func invalidUTF8Offset() {
        let bytes: [UInt8] = Array("[\"héllo ".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8)
        let error = parseError(bytes)
        #expect(error?.offset == 9)
        #expect(error?.column == 10)
    }

    @Test("control characters must be escaped")
    func controlCharacters() {
        for byte in UInt8(0)..<0x20 {
            let error = parseError([0x22, byte, 0x22])
            #expect(error?.message == "control character in string", "byte \(byte)")
        }
        #expect(parseError([0x22, 0x7F, 0x22]) == nil)  // DEL is allowed
    }

    @Test("strings of every length up to 40 around the 8-byte fast path")
    func lengths() throws {
        for length in 0...40 {
            let content = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            #expect(try decode("\"" + content + "\"") == content)
            #expect(try decode("\"" + content + "\\n\"") == content + "\n")
            #expect(try decode("\"" + content + "é\"") == content + "é")
            #expect(parseError("\"" + content) != nil)
        }
    }

    @Test("a BOM is skipped at offset 0 only")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try parse(bom + Array("{\"a\":1}".utf8)) == ["a": 1])
        #expect(skipError(bom + Array(" [] ".utf8)) == nil)
        #expect(parseError(bom)?.message == "unexpected end of input")
        #expect(parseError(bom)?.offset == 3)
        #expect(parseError(Array("[".utf8) + bom + Array("]".utf8))?.message == "expected a value, found byte 0xEF")
        #expect(parseError(bom + bom + Array("1".utf8)) != nil)
        #expect(parseError([0xEF, 0xBB]) != nil)
        try withReader(bom + Array("1".utf8)) { reader in
            #expect(reader.offset == 3)
            #expect(try reader.readNumber().int64 == 1)
            try reader.finish()
        }
    }
}
