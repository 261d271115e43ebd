import FanoutImport
import FanoutOutput
import Testing

@testable import FanoutExport

/// The pieces of the hand-written Parquet writer (docs/tables.md "Parquet"): Thrift's compact protocol, the RLE /
/// bit-packed hybrid of the levels, the tables' schemas, and the rows read into columns. That readers read the
/// files is `ParquetTablesTests`' (pyarrow, DuckDB).
@Suite struct ParquetEncodingTests {
    @Test func varintsAndZigzag() {
        var out: [UInt8] = []
        ThriftCompactWriter.varint(0, to: &out)
        ThriftCompactWriter.varint(127, to: &out)
        ThriftCompactWriter.varint(300, to: &out)
        ThriftCompactWriter.varint(UInt64.max, to: &out)
        #expect(out == [0x00, 0x7F, 0xAC, 0x02] + Array(repeating: 0xFF, count: 9) + [0x01])
        #expect(
            [0, -1, 1, -2, 2, Int64.max, Int64.min].map(ThriftCompactWriter.zigzag) == [
                0, 1, 2, 3, 4, UInt64.max - 1, UInt64.max,
            ])
    }

    @Test func compactStructs() {
        var t = ThriftCompactWriter()
        t.i32(1, -1)  // delta 1, i32: 0x15, zigzag 1
        t.i64(3, 150)  // delta 2, i64: 0x26, zigzag 300
        t.binary(20, "ab")  // delta 17: the long form, type then the id's zigzag varint
        t.list(21, of: .i32, count: 2)  // delta 1, list: 0x19, then size 2 of i32: 0x25
        t.i32Value(0)
        t.i32Value(3)
        t.structField(22)
        t.bool(1, true)  // inside the struct the ids start again
        t.endStruct()
        t.list(23, of: .binary, count: 15)  // 15 elements: the long list header
        for _ in 0..<15 { t.binaryValue("") }
        let bytes = t.finish()
        let fields: [UInt8] = [
            0x15, 0x01, 0x26, 0xAC, 0x02, 0x08, 0x28, 0x02, 0x61, 0x62, 0x19, 0x25, 0x00, 0x06, 0x1C, 0x11, 0x00,
        ]
        let longList: [UInt8] = [0x19, 0xF8, 0x0F] + [UInt8](repeating: 0x00, count: 15)
        #expect(bytes == fields + longList + [0x00])
    }

    @Test func levelRuns() {
        // Every row present: one RLE run (header 1000 << 1 as a varint, then the value).
        var levels = [UInt8](repeating: 1, count: 1000)
        #expect(levels.withUnsafeBufferPointer { ParquetLevels.encode($0, bitWidth: 1) } == [0xD0, 0x0F, 0x01])
        // Alternating values: one bit-packed run of 2 groups, least significant bit first.
        levels = (0..<16).map { UInt8($0 % 2) }
        #expect(levels.withUnsafeBufferPointer { ParquetLevels.encode($0, bitWidth: 1) } == [0x05, 0xAA, 0xAA])
        // A tail shorter than a group ends as RLE runs.
        levels = [2, 2, 0]
        #expect(levels.withUnsafeBufferPointer { ParquetLevels.encode($0, bitWidth: 2) } == [0x04, 0x02, 0x02, 0x00])
    }

    @Test(arguments: [1, 2, 3])
    func levelsRoundTrip(bitWidth: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 0..<300, using: &generator)
            // Runs of random lengths, so that both kinds of run occur.
            var levels: [UInt8] = []
            while levels.count < count {
                let value = UInt8.random(in: 0..<UInt8(1 << bitWidth), using: &generator)
                levels += Array(repeating: value, count: min(count - levels.count, Int.random(in: 1...20)))
            }
            let encoded = levels.withUnsafeBufferPointer { ParquetLevels.encode($0, bitWidth: bitWidth) }
            #expect(ParquetLevels.decode(encoded, bitWidth: bitWidth, count: levels.count) == levels)
        }
    }

    @Test func everyTableHasASchema() {
        for table in Table.allCases {
            let schema = ParquetSchema(table: table)
            #expect(schema.fields.count == table.columns.count)
            #expect(schema.elements[0].children == table.columns.count)
        }
        let posts = ParquetSchema(table: .posts)
        #expect(
            posts.leaves.suffix(3).map(\.path)
                == ["path", "expected", "actual"].map {
                    ["field_problems", "list", "element", $0]
                })
        #expect(
            posts.leaves.first
                == ParquetSchema.Leaf(path: ["path"], physical: .byteArray, maxDefinition: 0, maxRepetition: 0))
        #expect(
            posts.leaves[4]
                == ParquetSchema.Leaf(path: ["created_at"], physical: .double, maxDefinition: 1, maxRepetition: 0))
        #expect(throws: ParquetSchema.UnsupportedType.self) {
            try ParquetSchema(columns: [("m", "map<string,string>")])
        }
    }

    /// Strings are scanned 16 bytes at a time (as the reader scans them); a non-ASCII or control byte stops the
    /// scan and is kept, an escape anywhere in a long string is unescaped, and a string ending in the last bytes of
    /// the rows is found byte by byte.
    @Test func longStringsAcrossTheScansSteps() throws {
        let schema = try ParquetSchema(columns: [("path", "string")])
        let long = String(repeating: "x", count: 20) + "é" + String(repeating: "y", count: 17)
        let rows = "{\"path\":\"\(long)\\n\(String(repeating: "z", count: 30))\\\"\"}\n{\"path\":\"ab\"}\n"
        var chunks = schema.leaves.map(ParquetColumnChunk.init)
        let read = try chunks.withUnsafeMutableBufferPointer { chunks in
            try Array(rows.utf8).withUnsafeBytes { try ParquetRowDecoder(schema: schema).decode($0, into: chunks) }
        }
        #expect(read.rows == 2 && read.read == rows.utf8.count)
        let first = Array((long + "\n" + String(repeating: "z", count: 30) + "\"").utf8)
        let expected =
            withUnsafeBytes(of: UInt32(first.count).littleEndian, Array.init) + first
            + withUnsafeBytes(of: UInt32(2).littleEndian, Array.init) + Array("ab".utf8)
        #expect(Array(chunks[0].values.bytes) == expected)
        // Unterminated, whether the scan runs out in its 16-byte steps or in the last bytes.
        for text in ["{\"path\":\"" + String(repeating: "q", count: 40), "{\"path\":\"q"] {
            var chunks = schema.leaves.map(ParquetColumnChunk.init)
            #expect(throws: ParquetRowDecoder.DecodeError.self) {
                try chunks.withUnsafeMutableBufferPointer { chunks in
                    try Array(text.utf8).withUnsafeBytes {
                        try ParquetRowDecoder(schema: schema).decode($0, into: chunks)
                    }
                }
            }
        }
    }

    @Test func rowsIntoColumns() throws {
        let schema = try ParquetSchema(columns: [
            ("path", "string"), ("seq", "bigint"), ("t", "double"), ("b", "boolean"),
            ("l", "array<struct<x:string,y:bigint>>"),
        ])
        let rows = """
            {"path":"a\\"\\\\\\n\\u0001\\u00e9","seq":-9223372036854775808,"t":1.5e+300,"b":true,"l":[]}
            {"path":"é","seq":42,"t":null,"b":null,"l":[{"x":"p","y":1},{"x":"q","y":2}]}
            {"path":"","seq":0,"t":7,"b":false,"l":null}

            """
        var chunks = schema.leaves.map(ParquetColumnChunk.init)
        let read = try chunks.withUnsafeMutableBufferPointer { chunks in
            try Array(rows.utf8).withUnsafeBytes { try ParquetRowDecoder(schema: schema).decode($0, into: chunks) }
        }
        #expect(read.rows == 3 && read.read == rows.utf8.count)
        // A row group's limit stops the reading after the row that reaches it.
        var more = schema.leaves.map(ParquetColumnChunk.init)
        let first = try more.withUnsafeMutableBufferPointer { chunks in
            try Array(rows.utf8).withUnsafeBytes {
                try ParquetRowDecoder(schema: schema).decode($0, into: chunks, limit: 1)
            }
        }
        #expect(first.rows == 1 && first.read == rows.split(separator: "\n")[0].utf8.count + 1)
        func bytes(_ chunk: ParquetColumnChunk) -> [UInt8] { Array(chunk.values.bytes) }
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        #expect(
            bytes(chunks[0]) == le(UInt32(7)) + [0x61, 0x22, 0x5C, 0x0A, 0x01, 0xC3, 0xA9] + le(UInt32(2)) + [
                0xC3, 0xA9,
            ] + le(UInt32(0)))
        #expect(chunks[0].definitions.isEmpty && chunks[0].count == 3)
        #expect(bytes(chunks[1]) == le(Int64.min) + le(Int64(42)) + le(Int64(0)))
        #expect(bytes(chunks[2]) == le((1.5e300).bitPattern) + le((7.0).bitPattern))
        #expect(chunks[2].definitions == [1, 0, 1])
        chunks[3].finishValues()
        #expect(bytes(chunks[3]) == [0b01] && chunks[3].definitions == [1, 0, 1])
        #expect(chunks[4].definitions == [1, 2, 2, 0] && chunks[4].repetitions == [0, 0, 1, 0])
        #expect(bytes(chunks[5]) == le(Int64(1)) + le(Int64(2)) && chunks[5].count == 4)
        // A null in a required column, or columns out of order, is the writer's bug: an error.
        for bad in [#"{"path":null,"seq":1,"t":1,"b":true,"l":[]}"#, #"{"seq":1,"path":"","t":1,"b":true,"l":[]}"#] {
            var chunks = schema.leaves.map(ParquetColumnChunk.init)
            #expect(throws: ParquetRowDecoder.DecodeError.self) {
                try chunks.withUnsafeMutableBufferPointer { chunks in
                    try Array((bad + "\n").utf8).withUnsafeBytes {
                        try ParquetRowDecoder(schema: schema).decode($0, into: chunks)
                    }
                }
            }
        }
    }

    @Test func fileLayout() throws {
        var file: [UInt8] = []
        let writer = try ParquetFileWriter(schema: ParquetSchema(table: .timeline), name: "t") { bytes in
            file += bytes
        }
        try Array(#"{"path":"timeline/u/p","seq":3,"user":"u","post":"p","poster":null}"#.utf8 + [0x0A]).withUnsafeBytes
        {
            try writer.append($0)
        }
        try writer.finish()
        #expect(Array(file.prefix(4)) == Array("PAR1".utf8) && Array(file.suffix(4)) == Array("PAR1".utf8))
        let footer = file.suffix(8).prefix(4).withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
        #expect(footer > 0 && footer < file.count - 12)
        // The footer starts with version 1 and the schema's 6 elements (the root and 5 columns).
        #expect(Array(file[(file.count - 8 - footer)...].prefix(4)) == [0x15, 0x02, 0x19, 0x6C])
    }

    /// Dictionary indices wider than a byte, in RLE runs (the value in 2 or 3 bytes) and bit-packed groups.
    @Test(arguments: [9, 16, 17])
    func wideIndices(bitWidth: Int) {
        var values: [UInt32] = Array(repeating: 300, count: 20)
        for i in 0..<37 { values.append(UInt32((i * 7919) % (1 << bitWidth))) }
        let encoded = values.withUnsafeBufferPointer { ParquetLevels.encode($0, bitWidth: bitWidth) }
        #expect(Array(encoded.prefix(1 + (bitWidth + 7) / 8)) == [40, 0x2C, 0x01] + (bitWidth > 16 ? [0] : []))
        #expect(ParquetLevels.decodeWide(encoded, bitWidth: bitWidth, count: values.count) == values)
    }

    private func plain(_ strings: [String]) -> [UInt8] {
        strings.flatMap { s in withUnsafeBytes(of: UInt32(s.utf8.count).littleEndian) { Array($0) } + Array(s.utf8) }
    }

    @Test func dictionary() {
        var dictionary = ParquetDictionary()
        let values = plain(["u1", "u2", "u1", "u1", "", "u2", ""])
        let built = values.withUnsafeBytes { dictionary.build($0, maxDistinct: 3, maxBytes: 1 << 20) }
        #expect(built)
        #expect(dictionary.count == 3 && dictionary.indices == [0, 1, 0, 0, 2, 1, 2])
        #expect(Array(dictionary.values.bytes) == plain(["u1", "u2", ""]))
        // The fallback: more distinct values than allowed, or more bytes; the memory is reused.
        #expect(!values.withUnsafeBytes { dictionary.build($0, maxDistinct: 2, maxBytes: 1 << 20) })
        #expect(!values.withUnsafeBytes { dictionary.build($0, maxDistinct: 3, maxBytes: 12) })
        #expect(values.withUnsafeBytes { dictionary.build($0, maxDistinct: 3, maxBytes: 18) })
        #expect(dictionary.indices == [0, 1, 0, 0, 2, 1, 2])
    }

    /// A string column of few distinct values gets a dictionary page; `path`, every value distinct, stays PLAIN.
    @Test func dictionaryPages() throws {
        var file: [UInt8] = []
        let writer = try ParquetFileWriter(schema: ParquetSchema(table: .timeline), name: "t") { bytes in
            file += bytes
        }
        var rows = ""
        for i in 0..<40 {
            rows += #"{"path":"timeline/u/p\#(i)","seq":\#(i),"user":"u\#(i % 2)","post":"p","poster":null}"# + "\n"
        }
        try Array(rows.utf8).withUnsafeBytes { try writer.append($0) }
        try writer.finish()
        func count(_ needle: [UInt8]) -> Int {
            (0...(file.count - needle.count)).filter { file[$0..<$0 + needle.count].elementsEqual(needle) }.count
        }
        // A DICTIONARY_PAGE header: type 2, the sizes, then dictionary_page_header: num_values, PLAIN.
        #expect(count([0x4C, 0x15, 0x04, 0x15, 0x00, 0x00, 0x00]) == 1)  // user: 2 values
        #expect(count([0x4C, 0x15, 0x02, 0x15, 0x00, 0x00, 0x00]) == 1)  // post: 1 value
        // Data pages: `path` and `seq` PLAIN, `user` and `post` RLE_DICTIONARY (`poster`, all null, PLAIN).
        #expect(count([0x15, 0x50, 0x15, 0x10, 0x15, 0x06, 0x15, 0x06, 0x00]) == 2)
    }
}
