import Testing

@testable import FanoutJSON

@Suite("JSONReader pull API")
struct ReaderTests {
    @Test("walks an object with nested objects, arrays and escaped keys")
    func pullWalk() throws {
        let text = #"""
            {"name": "Ada", "count": 3, "nested": {"list": [1, true, null, {"deep": "x"}], "e\u0073c\"aped": false},
             "empty": {}, "none": [], "after": -2.5}
            """#
        try withReader(text) { reader in
            #expect(try reader.peekKind() == .object)
            try reader.beginObject()
            #expect(try reader.nextKeyString() == "name")
            #expect(try reader.peekKind() == .string)
            #expect(try reader.readString() == "Ada")
            #expect(try reader.nextKeyString() == "count")
            #expect(try reader.readNumber() == JSONNumber(3))
            #expect(try reader.nextKeyString() == "nested")
            try reader.beginObject()
            #expect(try reader.nextKeyString() == "list")
            try reader.beginArray()
            #expect(try reader.nextElement())
            #expect(try reader.readNumber().int64 == 1)
            #expect(try reader.nextElement())
            #expect(try reader.peekKind() == .bool)
            #expect(try reader.readBool() == true)
            #expect(try reader.nextElement())
            #expect(try reader.peekKind() == .null)
            try reader.readNull()
            #expect(try reader.nextElement())
            try reader.beginObject()
            #expect(try reader.nextKeyString() == "deep")
            #expect(try reader.readString() == "x")
            #expect(try reader.nextKey() == nil)
            #expect(try reader.nextElement() == false)
            #expect(try reader.nextKeyString() == #"esc"aped"#)
            #expect(try reader.readBool() == false)
            #expect(try reader.nextKey() == nil)
            #expect(try reader.nextKeyString() == "empty")
            try reader.beginObject()
            #expect(try reader.nextKey() == nil)
            #expect(try reader.nextKeyString() == "none")
            try reader.beginArray()
            #expect(try reader.nextElement() == false)
            #expect(try reader.nextKeyString() == "after")
            #expect(try reader.readNumber().double == -2.5)
            #expect(try reader.nextKey() == nil)
            try reader.finish()
            #expect(reader.offset == text.utf8.count)
        }
    }

    @Test("skipValue skips members of any shape and the walk continues")
    func skipMembers() throws {
        let text = #"{"a": {"x": [1, {"y": [[], {}]}], "z": "s\n"}, "b": [1, 2], "c": "keep", "d": 1e5, "e": null}"#
        try withReader(text) { reader in
            try reader.beginObject()
            var seen: [String] = []
            while let key = try reader.nextKeyString() {
                if key == "c" {
                    seen.append(try reader.readString())
                } else {
                    try reader.skipValue()
                    seen.append(key)
                }
            }
            try reader.finish()
            #expect(seen == ["a", "b", "keep", "d", "e"])
        }
    }

    @Test("keys without escapes are zero-copy slices of the input")
    func zeroCopyKeys() throws {
        let bytes = Array(#"{"plain": 1, "with\"escape": 2, "": 3}"#.utf8)
        try bytes.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer)
            let inputStart = try #require(buffer.baseAddress)
            try reader.beginObject()

            let plain = try #require(try reader.nextKey())
            #expect(string(plain) == "plain")
            #expect(plain.baseAddress == inputStart + 2)
            try reader.skipValue()

            let escaped = try #require(try reader.nextKey())
            #expect(string(escaped) == #"with"escape"#)
            let escapedStart = try #require(escaped.baseAddress)
            let insideInput = escapedStart >= inputStart && escapedStart < inputStart + buffer.count
            #expect(!insideInput, "an unescaped key is decoded into scratch memory")
            try reader.skipValue()

            let empty = try #require(try reader.nextKey())
            #expect(empty.count == 0)
            try reader.skipValue()
            #expect(try reader.nextKey() == nil)
            try reader.finish()
        }
    }

    @Test("readStringBytes: zero copy without escapes, decoded with escapes")
    func stringBytes() throws {
        let bytes = Array(#"["abc", "a\tb\u00e9\ud83d\ude00"]"#.utf8)
        try bytes.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer)
            try reader.beginArray()
            #expect(try reader.nextElement())
            let plain = try reader.readStringBytes()
            #expect(plain.baseAddress == buffer.baseAddress! + 2)
            #expect(string(plain) == "abc")
            #expect(try reader.nextElement())
            #expect(string(try reader.readStringBytes()) == "a\tb\u{e9}\u{1F600}")
            #expect(try reader.nextElement() == false)
            try reader.finish()
        }
    }

    @Test("offset follows the consumed tokens")
    func offsets() throws {
        try withReader(#"  [1, "two"]  "#) { reader in
            #expect(reader.offset == 0)
            #expect(try reader.peekKind() == .array)
            #expect(reader.offset == 2)
            try reader.beginArray()
            #expect(reader.offset == 3)
            #expect(try reader.nextElement())
            _ = try reader.readNumber()
            #expect(reader.offset == 4)
            #expect(try reader.nextElement())
            _ = try reader.readString()
            #expect(reader.offset == 11)
            #expect(try reader.nextElement() == false)
            #expect(reader.offset == 12)
            try reader.finish()
            #expect(reader.offset == 14)
        }
    }

    @Test("a read of the wrong kind throws with a position")
    func kindMismatch() throws {
        let cases: [(String, (inout JSONReader) throws -> Void, String)] = [
            ("123", { _ = try $0.readString() }, "expected a string"),
            ("\"x\"", { _ = try $0.readNumber() }, "expected a number"),
            ("null", { _ = try $0.readBool() }, "expected a bool"),
            ("true", { try $0.readNull() }, "expected null"),
            ("[]", { try $0.beginObject() }, "expected an object"),
            ("{}", { try $0.beginArray() }, "expected an array"),
        ]
        for (text, read, message) in cases {
            let error = syntaxError { try withReader(text) { try read(&$0) } }
            #expect(error?.message == message, "\(text)")
            #expect(error?.offset == 0)
            #expect(error?.description == "invalid JSON at line 1, column 1: \(message)")
        }
    }

    @Test("calling methods out of order throws a misuse error instead of crashing")
    func misuse() {
        let inArray = syntaxError {
            try withReader("[1]") { reader in
                try reader.beginArray()
                _ = try reader.nextKey()
            }
        }
        #expect(inArray?.message.hasPrefix("reader misuse") == true)

        let valueBeforeKey = syntaxError {
            try withReader(#"{"a":1}"#) { reader in
                try reader.beginObject()
                _ = try reader.readNumber()
            }
        }
        #expect(valueBeforeKey?.message.hasPrefix("reader misuse") == true)

        let secondTopLevel = syntaxError {
            try withReader("1 2") { reader in
                _ = try reader.readNumber()
                _ = try reader.readNumber()
            }
        }
        #expect(secondTopLevel?.message.hasPrefix("reader misuse") == true)

        let keyTwice = syntaxError {
            try withReader(#"{"a":1,"b":2}"#) { reader in
                try reader.beginObject()
                _ = try reader.nextKey()
                _ = try reader.nextKey()
            }
        }
        #expect(keyTwice?.message.hasPrefix("reader misuse") == true)

        let earlyFinish = syntaxError {
            try withReader("[1]") { reader in
                try reader.beginArray()
                try reader.finish()
            }
        }
        #expect(earlyFinish?.message.hasPrefix("reader misuse") == true)
    }

    @Test("finish rejects trailing characters")
    func trailing() {
        let error = skipError("{} x")
        #expect(error?.message == "trailing characters after the top-level value")
        #expect(error?.offset == 3)
        #expect(skipError("{}  \n\t\r ") == nil)
        #expect(parseError("[1] [2]")?.message == "trailing characters after the top-level value")
    }
}
