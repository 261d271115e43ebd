import Testing

@testable import FanoutJSON

@Suite("Error messages and positions")
struct ErrorPositionTests {
    /// Checks that both the tree parser and the skip pass report `message` at `line`/`column`.
    private func expectError(
        _ text: String, _ message: String, line: Int, column: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for error in [parseError(text), skipError(text)] {
            #expect(error?.message == message, "\(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(error?.line == line, "\(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(error?.column == column, "\(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(
                error?.description == "invalid JSON at line \(line), column \(column): \(message)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("missing colon on the second line")
    func missingColon() {
        let text = "{\"a\":1,\n  \"b\" 2}"
        expectError(text, "expected ':' after object key", line: 2, column: 7)
        #expect(parseError(text)?.offset == 14)
    }

    @Test("structural errors")
    func structural() {
        expectError("{\"a\":1 \"b\":2}", "expected ',' or '}' after object member", line: 1, column: 8)
        expectError("[1 2]", "expected ',' or ']' after array element", line: 1, column: 4)
        expectError("{\"a\":1,}", "expected a string key", line: 1, column: 8)
        expectError("{a:1}", "expected a string key", line: 1, column: 2)
        expectError("[1,]", "expected a value, found ']'", line: 1, column: 4)
        expectError("[\n\n  @]", "expected a value, found '@'", line: 3, column: 3)
        expectError("[\u{1}]", "expected a value, found byte 0x01", line: 1, column: 2)
        expectError("[tru]", "invalid literal (expected 'true')", line: 1, column: 2)
        expectError("nul", "unexpected end of input", line: 1, column: 4)
        expectError("{\"a\":1}}", "trailing characters after the top-level value", line: 1, column: 8)
    }

    @Test("empty, whitespace-only and truncated input")
    func endOfInput() {
        expectError("", "unexpected end of input", line: 1, column: 1)
        expectError("   ", "unexpected end of input", line: 1, column: 4)
        expectError(" \n ", "unexpected end of input", line: 2, column: 2)
        expectError("{\"a\":[1,2", "unexpected end of input", line: 1, column: 10)
        expectError("{\"a\"", "unexpected end of input", line: 1, column: 5)
        expectError("{\"a\":", "unexpected end of input", line: 1, column: 6)
        expectError("[", "unexpected end of input", line: 1, column: 2)
        expectError("[\"abc", "unterminated string", line: 1, column: 2)
        expectError("-", "unexpected end of input", line: 1, column: 2)
        // Every proper prefix of a document is an error.
        let document = #"{"k": [1, -2.5e3, "s\u00e9", true, false, null, {"x": {}}], "z": "end"}"#
        let bytes = Array(document.utf8)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            #expect(parseError(prefix) != nil, "prefix of length \(length)")
            #expect(skipError(prefix) != nil, "prefix of length \(length)")
        }
        #expect(parseError(bytes) == nil)
    }

    @Test("number errors")
    func numbers() {
        expectError("01", "leading zero in number", line: 1, column: 1)
        expectError("[-012]", "leading zero in number", line: 1, column: 3)
        expectError("[1.]", "expected a digit after '.'", line: 1, column: 4)
        expectError("[1e]", "expected a digit in exponent", line: 1, column: 4)
        expectError("[1e+]", "expected a digit in exponent", line: 1, column: 5)
        expectError("[-x]", "expected a digit after '-'", line: 1, column: 3)
        expectError("[+1]", "expected a value, found '+'", line: 1, column: 2)
        expectError("[.5]", "expected a value, found '.'", line: 1, column: 2)
        expectError("[0x1]", "expected ',' or ']' after array element", line: 1, column: 3)
        expectError("[NaN]", "expected a value, found 'N'", line: 1, column: 2)
        expectError("[Infinity]", "expected a value, found 'I'", line: 1, column: 2)
    }

    @Test("string errors")
    func strings() {
        expectError(#"["a\x"]"#, #"invalid escape '\x'"#, line: 1, column: 4)
        expectError(#"["\u12G4"]"#, #"invalid \u escape (expected 4 hex digits)"#, line: 1, column: 3)
        expectError("[\"a\tb\"]", "control character in string", line: 1, column: 4)
        expectError("[\"a\nb\"]", "control character in string", line: 1, column: 4)
        expectError(#"{"a": "b}"#, "unterminated string", line: 1, column: 7)
        expectError(#"["\"#, "unterminated string", line: 1, column: 2)
    }

    @Test("line and column count bytes, and the position is clamped")
    func columnsCountBytes() {
        // "é" is two bytes, so the '@' is at byte column 7 of line 2.
        expectError("[\"é\",\n\"é\", @]", "expected a value, found '@'", line: 2, column: 7)
        let error = [UInt8]("ab\ncd".utf8).withUnsafeBytes { buffer in
            JSONReader(buffer).error("custom", at: 99)
        }
        #expect(error == JSONSyntaxError(message: "custom", offset: 5, line: 2, column: 3))
    }

    @Test("adapters can build positioned errors for schema problems")
    func adapterErrors() throws {
        try withReader("{\n  \"posts\": 3\n}") { reader in
            try reader.beginObject()
            _ = try reader.nextKey()
            _ = try reader.peekKind()
            let error = reader.error("expected an object at posts", at: reader.offset)
            #expect(error.description == "invalid JSON at line 2, column 12: expected an object at posts")
        }
    }
}
