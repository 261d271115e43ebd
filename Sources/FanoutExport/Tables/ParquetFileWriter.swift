import FanoutImport
import FanoutOutput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One Parquet file of a table, written as the table's NDJSON rows arrive (``ParquetRowDecoder``), a row group at
/// a time, so that memory stays bounded (docs/tables.md "Parquet").
///
/// The subset of Parquet written: format version 1, no compression, one v1 data page per column chunk, values
/// PLAIN-encoded, definition and repetition levels in the RLE / bit-packed hybrid (``ParquetLevels``), no
/// statistics or indexes; the footer (`FileMetaData`) in Thrift's compact protocol (``ThriftCompactWriter``). A
/// `BYTE_ARRAY` column chunk is dictionary-encoded (a PLAIN dictionary page before the data page, whose values are
/// `RLE_DICTIONARY` indices) unless its distinct values are more than half its values or ``dictionaryBytes``
/// (``ParquetDictionary``); a column that once falls back to PLAIN stays PLAIN for the rest of the file. Every
/// reader of the format reads that subset (pyarrow, DuckDB and Spark do: a test).
final class ParquetFileWriter {
    /// A row group ends once its columns hold about this many bytes (checked after each piece of rows, about a
    /// megabyte of NDJSON): 8 MB, or `FANOUT_PARQUET_ROW_GROUP_BYTES` (for tests, which write files of several row
    /// groups from small exports).
    static let rowGroupBytes: Int = {
        if let text = getenv("FANOUT_PARQUET_ROW_GROUP_BYTES").map({ String(cString: $0) }), let bytes = Int(text),
            bytes > 0
        {
            return bytes
        }
        return 8 << 20
    }()

    /// A column chunk's dictionary holds at most this many bytes (PLAIN-encoded), else the chunk is PLAIN: 1 MB,
    /// as other writers' default dictionary page.
    static let dictionaryBytes = 1 << 20

    /// Whether string columns are dictionary-encoded: yes, but with `FANOUT_PARQUET_DICTIONARY=0` (for
    /// measurements of PLAIN against dictionaries).
    static let dictionaries: Bool = getenv("FANOUT_PARQUET_DICTIONARY").map { String(cString: $0) } != "0"

    private let schema: ParquetSchema
    private let decoder: ParquetRowDecoder
    private var chunks: [ParquetColumnChunk]
    private var dictionaries: [ParquetDictionary]
    /// Per leaf: its chunks are PLAIN from now on (a dictionary was abandoned, or the leaf is not a string).
    private var plainOnly: [Bool]
    private var rowsInGroup = 0
    private var totalRows: Int64 = 0
    /// Bytes written so far: where the next page starts.
    private var offset: Int64 = 0
    private var rowGroups: [RowGroup] = []
    private let output: (UnsafeRawBufferPointer) throws(OutputError) -> Void
    /// The file's name, for errors.
    private let name: String

    private struct ColumnChunk {
        var offset: Int64
        var size: Int64
        var values: Int64
        /// Where the dictionary page starts (then `offset`), if there is one.
        var dictionaryOffset: Int64?
        var dataOffset: Int64
    }

    private struct RowGroup {
        var rows: Int64
        var columns: [ColumnChunk]
    }

    /// Starts a file of rows laid out as `schema`, written through `output`; `name` names it in errors.
    init(
        schema: ParquetSchema, name: String,
        output: @escaping (UnsafeRawBufferPointer) throws(OutputError) -> Void
    ) throws(OutputError) {
        self.schema = schema
        self.name = name
        self.output = output
        decoder = ParquetRowDecoder(schema: schema)
        chunks = schema.leaves.map(ParquetColumnChunk.init)
        dictionaries = schema.leaves.map { _ in ParquetDictionary() }
        plainOnly = schema.leaves.map { $0.physical != .byteArray || !Self.dictionaries }
        try write(Self.magic)
    }

    private static let magic: [UInt8] = Array("PAR1".utf8)

    /// Appends whole NDJSON rows of the table.
    func append(_ rows: UnsafeRawBufferPointer) throws(OutputError) {
        var rest = rows
        while !rest.isEmpty {
            var failure: ParquetRowDecoder.DecodeError?
            let (count, read) = chunks.withUnsafeMutableBufferPointer { chunks in
                do throws(ParquetRowDecoder.DecodeError) {
                    return try decoder.decode(rest, into: chunks, limit: Self.rowGroupBytes)
                } catch {
                    failure = error
                    return (0, 0)
                }
            }
            if let failure { throw OutputError(path: name, message: "cannot write Parquet: \(failure.description)") }
            rowsInGroup += count
            rest = UnsafeRawBufferPointer(rebasing: rest[read...])
            if !rest.isEmpty || chunks.reduce(0, { $0 + $1.bufferedBytes }) >= Self.rowGroupBytes {
                try endRowGroup()
            }
        }
    }

    /// Writes the last row group and the footer.
    func finish() throws(OutputError) {
        try endRowGroup()
        let footer = footer()
        try write(footer)
        try write(withUnsafeBytes(of: UInt32(footer.count).littleEndian) { Array($0) })
        try write(Self.magic)
    }

    private func write(_ bytes: [UInt8]) throws(OutputError) {
        var failure: OutputError?
        bytes.withUnsafeBytes { bytes in
            do throws(OutputError) { try output(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
        offset += Int64(bytes.count)
    }

    private func endRowGroup() throws(OutputError) {
        guard rowsInGroup > 0 else { return }
        var columns: [ColumnChunk] = []
        for index in chunks.indices {
            chunks[index].finishValues()
            columns.append(try page(index))
            chunks[index].reset()
        }
        rowGroups.append(RowGroup(rows: Int64(rowsInGroup), columns: columns))
        totalRows += Int64(rowsInGroup)
        rowsInGroup = 0
    }

    /// A column chunk: a dictionary page if its dictionary is kept, then one data page: its header, repetition
    /// levels, definition levels, values (PLAIN, or the bit width and the `RLE_DICTIONARY` indices).
    private func page(_ index: Int) throws(OutputError) -> ColumnChunk {
        let chunk = chunks[index]
        let start = offset
        var dictionaryOffset: Int64?
        var indices: [UInt8] = []
        if !plainOnly[index], chunk.values.count > 0 {
            if dictionaries[index].build(
                chunk.values.bytes, maxDistinct: chunk.count / 2, maxBytes: Self.dictionaryBytes)
            {
                let dictionary = dictionaries[index]
                var header = ThriftCompactWriter()
                header.i32(1, 2)  // type: DICTIONARY_PAGE
                header.i32(2, Int32(dictionary.values.count))  // uncompressed_page_size
                header.i32(3, Int32(dictionary.values.count))  // compressed_page_size
                header.structField(7)  // dictionary_page_header
                header.i32(1, Int32(dictionary.count))  // num_values
                header.i32(2, 0)  // encoding: PLAIN
                header.endStruct()
                dictionaryOffset = offset
                try write(header.finish())
                try output(dictionary.values.bytes)
                offset += Int64(dictionary.values.count)
                let bitWidth = max(1, ParquetLevels.bitWidth(dictionary.count - 1))
                indices = [UInt8(bitWidth)]
                indices += dictionary.indices.withUnsafeBufferPointer {
                    ParquetLevels.encode($0, bitWidth: bitWidth)
                }
            } else {
                plainOnly[index] = true
            }
        }
        func levels(_ levels: [UInt8], maximum: Int) -> [UInt8] {
            guard maximum > 0 else { return [] }
            let encoded = levels.withUnsafeBufferPointer {
                ParquetLevels.encode($0, bitWidth: ParquetLevels.bitWidth(maximum))
            }
            var length = UInt32(encoded.count).littleEndian
            return withUnsafeBytes(of: &length) { Array($0) } + encoded
        }
        let repetitions = levels(chunk.repetitions, maximum: chunk.leaf.maxRepetition)
        let definitions = levels(chunk.definitions, maximum: chunk.leaf.maxDefinition)
        let valueBytes = dictionaryOffset == nil ? chunk.values.count : indices.count
        let size = repetitions.count + definitions.count + valueBytes
        guard size <= Int32.max else {
            throw OutputError(path: name, message: "cannot write Parquet: a column chunk over 2 GB")
        }
        var header = ThriftCompactWriter()
        header.i32(1, 0)  // type: DATA_PAGE
        header.i32(2, Int32(size))  // uncompressed_page_size
        header.i32(3, Int32(size))  // compressed_page_size
        header.structField(5)  // data_page_header
        header.i32(1, Int32(chunk.count))  // num_values
        header.i32(2, dictionaryOffset == nil ? 0 : 8)  // encoding: PLAIN or RLE_DICTIONARY
        header.i32(3, 3)  // definition_level_encoding: RLE
        header.i32(4, 3)  // repetition_level_encoding: RLE
        header.endStruct()
        let dataOffset = offset
        try write(header.finish())
        try write(repetitions)
        try write(definitions)
        if dictionaryOffset == nil {
            try output(chunk.values.bytes)
            offset += Int64(chunk.values.count)
        } else {
            try write(indices)
        }
        return ColumnChunk(
            offset: start, size: offset - start, values: Int64(chunk.count), dictionaryOffset: dictionaryOffset,
            dataOffset: dataOffset)
    }

    /// `FileMetaData`: the schema, the row groups and their column chunks.
    private func footer() -> [UInt8] {
        var t = ThriftCompactWriter()
        t.i32(1, 1)  // version
        t.list(2, of: .structure, count: schema.elements.count)
        for element in schema.elements {
            t.beginStruct()
            if let physical = element.physical { t.i32(1, physical.rawValue) }
            if let repetition = element.repetition { t.i32(3, repetition.rawValue) }
            t.binary(4, element.name)
            if let children = element.children { t.i32(5, Int32(children)) }
            switch element.annotation {
            case .string?:
                t.i32(6, 0)  // converted_type: UTF8
                t.structField(10)  // logicalType
                t.structField(1)  // STRING
                t.endStruct()
                t.endStruct()
            case .list?:
                t.i32(6, 3)  // converted_type: LIST
                t.structField(10)
                t.structField(3)  // LIST
                t.endStruct()
                t.endStruct()
            case nil: break
            }
            t.endStruct()
        }
        t.i64(3, totalRows)  // num_rows
        t.list(4, of: .structure, count: rowGroups.count)
        for group in rowGroups {
            t.beginStruct()
            t.list(1, of: .structure, count: group.columns.count)
            for (leaf, column) in zip(schema.leaves, group.columns) {
                t.beginStruct()
                t.i64(2, column.offset)  // file_offset
                t.structField(3)  // meta_data
                t.i32(1, leaf.physical.rawValue)
                // PLAIN (values or dictionary), RLE (levels, indices), RLE_DICTIONARY
                let encodings: [Int32] =
                    column.dictionaryOffset != nil
                    ? [0, 3, 8] : leaf.maxDefinition + leaf.maxRepetition > 0 ? [0, 3] : [0]
                t.list(2, of: .i32, count: encodings.count)
                for encoding in encodings { t.i32Value(encoding) }
                t.list(3, of: .binary, count: leaf.path.count)
                for piece in leaf.path { t.binaryValue(piece) }
                t.i32(4, 0)  // codec: UNCOMPRESSED
                t.i64(5, column.values)  // num_values
                t.i64(6, column.size)  // total_uncompressed_size
                t.i64(7, column.size)  // total_compressed_size
                t.i64(9, column.dataOffset)  // data_page_offset
                if let dictionaryOffset = column.dictionaryOffset {
                    t.i64(11, dictionaryOffset)  // dictionary_page_offset
                }
                t.endStruct()
                t.endStruct()
            }
            let size = group.columns.reduce(0) { $0 + $1.size }
            t.i64(2, size)  // total_byte_size
            t.i64(3, group.rows)  // num_rows
            t.i64(5, group.columns.first?.offset ?? 0)  // file_offset
            t.i64(6, size)  // total_compressed_size
            t.endStruct()
        }
        t.binary(6, "fanout version \(Self.version)")  // created_by
        return t.finish()
    }

    /// The version in `created_by` (readers parse `NAME version X`).
    static let version = "1"
}
