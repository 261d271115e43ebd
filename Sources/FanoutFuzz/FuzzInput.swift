import FanoutCore
import FanoutImport
import FanoutJSON
import Foundation

/// One fuzz iteration: feeds `bytes` to every way Fanout reads JSON.
///
/// Errors are the expected outcome for most inputs and are ignored; what the fuzzer looks for is a crash,
/// a hang, or (under AddressSanitizer) a memory error. Every entry point that reads untrusted bytes is driven:
/// the skipping validator, the pull API walked to the end, the tree parser, and the schema-guided walker of
/// each Firebase preset, followed by derivation and every check on what it read (a schema that does not fit
/// the data leaves fields missing, which the rules must survive). The input is also read as a user's file
/// would be, through ``ExportLoader/load(path:schema:progress:)``: gzip (zlib), zip (ZIPFoundation, then the
/// Parse class files inside) and layout detection; as every class file of a Parse export; and by the Firestore
/// readers, as an `output-N` file and as one record's data (``FirestoreFuzz``); as a schema file and a baseline
/// (``TextFuzz``); and as a template, a site's Markdown page, a JSON report, a history and a `fanout.toml`
/// (``RenderFuzz``).
enum FuzzInput {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        skip(bytes)
        pull(bytes)
        _ = try? JSONValue.parse(bytes)
        let export = ExportBytes(bytes: Array(bytes), source: "fuzz.json")
        for schema in Presets.all where schema.format == .firebase {
            audit(try? ExportLoader.load(export, schema: schema))
        }
        asFiles(bytes)
        FirestoreFuzz.run(bytes, scratch: scratch)
        TextFuzz.run(bytes)
        RenderFuzz.run(bytes)
    }

    /// Derivation and every check on what a schema read.
    static func audit(_ dataset: Dataset?) {
        guard let dataset else { return }
        _ = Audit.run(CheckContext(dataset: dataset, derived: DerivedData(dataset)))
    }

    /// A folder of this process's own for the input written as files (in memory where there is a RAM disk).
    static let scratch: String = {
        let root = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = (root as NSString).appendingPathComponent(
            "fanout-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(atPath: folder + "/parse", withIntermediateDirectories: true)
        return folder
    }()

    /// The input as an export file (plain, gzip or zip, whichever its bytes are), and as every class file of
    /// each Parse preset.
    private static func asFiles(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        let file = scratch + "/export"
        guard FileManager.default.createFile(atPath: file, contents: data) else { return }
        audit(try? ExportLoader.load(path: file, schema: nil))
        for schema in Presets.all where schema.format == .parse {
            for className in schema.rootKeys {
                _ = FileManager.default.createFile(atPath: "\(scratch)/parse/\(className).json", contents: data)
            }
            audit(try? ExportLoader.load(path: scratch + "/parse", schema: schema))
        }
    }

    /// `skipValue()` then `finish()`: the validator the layout detector uses.
    private static func skip(_ bytes: UnsafeRawBufferPointer) {
        var reader = JSONReader(bytes)
        do {
            try reader.skipValue()
            try reader.finish()
        } catch {}
    }

    /// Walks the whole document with the pull API, iteratively (a recursive walk would itself overflow on deep
    /// nesting, hiding the reader's behaviour behind the harness's).
    private static func pull(_ bytes: UnsafeRawBufferPointer) {
        var reader = JSONReader(bytes)
        // true: inside an object; false: inside an array.
        var open: [Bool] = []
        do {
            try value(&reader, &open)
            while let inObject = open.last {
                if inObject {
                    if try reader.nextKeyString() != nil { try value(&reader, &open) } else { open.removeLast() }
                } else {
                    if try reader.nextElement() { try value(&reader, &open) } else { open.removeLast() }
                }
            }
            try reader.finish()
        } catch {}
    }

    /// Reads one scalar, or opens a container and records it in `open`.
    private static func value(_ reader: inout JSONReader, _ open: inout [Bool]) throws(JSONSyntaxError) {
        switch try reader.peekKind() {
        case .object: try reader.beginObject(); open.append(true)
        case .array: try reader.beginArray(); open.append(false)
        case .string: _ = try reader.readString()
        case .number: _ = try reader.readNumber()
        case .bool: _ = try reader.readBool()
        case .null: try reader.readNull()
        }
    }
}
