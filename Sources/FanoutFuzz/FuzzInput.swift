import FanoutCore
import FanoutImport
import FanoutJSON

/// One fuzz iteration: feeds `bytes` to every way Fanout reads JSON.
///
/// Errors are the expected outcome for most inputs and are ignored; what the fuzzer looks for is a crash,
/// a hang, or (under AddressSanitizer) a memory error. Every entry point that reads untrusted bytes is driven:
/// the skipping validator, the pull API walked to the end, the tree parser, and the schema-guided walker of
/// each Firebase preset, followed by derivation and every check on what it read (a schema that does not fit
/// the data leaves fields missing, which the rules must survive).
enum FuzzInput {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        skip(bytes)
        pull(bytes)
        _ = try? JSONValue.parse(bytes)
        let export = ExportBytes(bytes: Array(bytes), source: "fuzz.json")
        for schema in Presets.all where schema.format == .firebase {
            guard let dataset = try? ExportLoader.load(export, schema: schema) else { continue }
            let derived = DerivedData(dataset)
            _ = Audit.run(CheckContext(dataset: dataset, derived: derived))
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
