import FanoutCore
import FanoutImport
import FanoutJSON
import Foundation

/// The Firestore readers (docs/firestore.md) on one fuzz input, two ways: the input as an `output-N` file (the
/// LevelDB log read record by record, each record's `EntityProto` decoded), and the input as the data of one record,
/// framed here in a log whose checksums hold, so that the fuzzer reaches the protocol buffers decoder without
/// having to forge CRC-32Cs. The documents read are then written as JSON, one line each and as one tree, which must
/// be valid JSON (a crash here is a bug of ``DocumentJSON``) and the same bytes as the lines and the tree written
/// straight from the records (``FirestoreExport/lines(path:)``, ``FirestoreExport/tree(path:)``), and the tree is walked with every Firebase preset and
/// the schema of each Firestore fixture (`Tests/Fixtures/firestore/*.toml`: Triply's subcollections and counters,
/// SketchGram's arrays of IDs), and without a schema (the layout detected from a sample of the documents), each
/// followed by derivation and every check.
///
/// The log reader and the decoder are internal to FanoutImport, so both ways go through the public
/// ``FirestoreExport/read(path:)`` on a file in the harness's scratch folder.
enum FirestoreFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer, scratch: String) {
        read(Data(bytes), at: scratch + "/firestore-file/output-0")
        read(LogFile.holding(record: bytes), at: scratch + "/firestore-record/output-0")
    }

    /// The schemas the documents' tree is walked with.
    static let schemas: [Schema] = {
        var schemas = Presets.all.filter { $0.format == .firebase }
        // The fixtures, found from this file's place in the repository, where `make fuzz` and the replayer run.
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/firestore")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
            .filter { $0.hasSuffix(".toml") }.sorted()
        for name in names {
            do {
                schemas.append(try SchemaFile.load(path: fixtures.appendingPathComponent(name).path))
            } catch {
                FileHandle.standardError.write(Data("FirestoreFuzz: \(name) is left out: \(error)\n".utf8))
            }
        }
        if names.isEmpty {
            FileHandle.standardError.write(Data("FirestoreFuzz: no schema in \(fixtures.path)\n".utf8))
        }
        return schemas
    }()

    /// Writes `contents` to `file` (an `output-0`), reads it as a Firestore export, and walks what it holds.
    private static func read(_ contents: Data, at file: String) {
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: contents) else { return }
        let read = Result { () throws(InputError) in try FirestoreExport.read(path: file) }
        // The JSON written straight from the records (EntityJSON, where it takes a record) against the documents'.
        let fastLines = Result { () throws(InputError) in try FirestoreExport.lines(path: file) }
        let fastTree = Result { () throws(InputError) in try FirestoreExport.tree(path: file) }
        guard case .success(let export) = read else {
            if case .success = fastLines { fatalError("FirestoreExport.lines read an export that read refuses") }
            return
        }
        var lines: [UInt8] = []
        for document in export.documents {
            let start = lines.count
            DocumentJSON.appendLine(document, to: &lines)
            // The line without its newline.
            lines.withUnsafeBytes { requireJSON(UnsafeRawBufferPointer(rebasing: $0[start..<($0.count - 1)])) }
        }
        guard (try? fastLines.get())?.joined().elementsEqual(lines) == true else {
            fatalError(
                "FirestoreExport.lines differs from the documents' lines: \(String(decoding: lines.prefix(300), as: UTF8.self))"
            )
        }
        guard let tree = try? DocumentJSON.tree(export.documents) else { return }
        guard (try? fastTree.get()) == tree else { fatalError("FirestoreExport.tree differs from the documents' tree") }
        tree.withUnsafeBytes { requireJSON($0) }
        let bytes = ExportBytes(bytes: tree, source: file)
        for schema in schemas { FuzzInput.audit(try? ExportLoader.load(bytes, schema: schema)) }
        // And as `fanout check` reads the file without a schema: the layout told from a sample of the documents
        // (their collections, then their posts' fields), then the export walked in chunks.
        FuzzInput.audit(try? ExportLoader.load(path: file, schema: nil))
    }

    /// Stops the run when `bytes` are not one JSON value (the validator has no depth limit, unlike
    /// `JSONValue.parse`, and a document's path may be deeper than any limit).
    private static func requireJSON(_ bytes: UnsafeRawBufferPointer) {
        var reader = JSONReader(bytes)
        do {
            try reader.skipValue()
            try reader.finish()
        } catch {
            fatalError(
                "DocumentJSON wrote invalid JSON: \(error): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        }
    }
}

/// A LevelDB log file holding one record, as Firestore's exports write them (LevelDBLog in FanoutImport reads
/// them): 32 KiB blocks, each fragment behind a 7-byte header (masked CRC-32C of its type and data, its length,
/// its type), one `FULL` fragment or `FIRST`, `MIDDLE`…, `LAST` for a record longer than a block holds. Written
/// here from the format, apart from Fanout's own code, so that the harness does not share a bug with the reader.
enum LogFile {
    static let blockSize = 32 * 1024
    static let headerSize = 7

    static func holding(record: UnsafeRawBufferPointer) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(record.count + (record.count / blockSize + 1) * headerSize)
        var offset = 0
        repeat {
            let room = blockSize - out.count % blockSize - headerSize
            let length = min(record.count - offset, room)
            let first = offset == 0
            let last = offset + length == record.count
            let type: UInt8 = first ? (last ? 1 : 2) : (last ? 4 : 3)
            let data = UnsafeRawBufferPointer(rebasing: record[offset..<(offset + length)])
            let crc = masked(crc32c(data, continuing: crc32c(CollectionOfOne(type))))
            out += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
            out += [UInt8(length & 0xFF), UInt8(length >> 8), type]
            out += data
            // A fragment that is not the last fills its block, so no block needs a zero trailer.
            offset += length
        } while offset < record.count
        return Data(out)
    }

    /// The reflected CRC-32C (Castagnoli, polynomial 0x82F63B78) table, a byte at a time.
    private static let table: [UInt32] = (0..<256).map { byte in
        var crc = UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    /// The CRC-32C of `bytes`, continuing from `crc` (0 to start).
    static func crc32c(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var crc = ~crc
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// LevelDB's masked CRC.
    static func masked(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }
}
