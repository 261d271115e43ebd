import FanoutCore
import FanoutImport
import Foundation

/// The input as the text files a user gives Fanout besides an export: a schema file (TOML: the parser, then the
/// schema it describes walked over a small export of each kind the seeds hold, with derivation and every check),
/// and a baseline (`--baseline`, JSON). Input that is not UTF-8 is no such file and is left out.
enum TextFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let text = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) else {
            return
        }
        if let schema = try? SchemaFile.parse(text, source: "fuzz.toml", defaultName: "fuzz") {
            for export in exports { FuzzInput.audit(try? ExportLoader.load(export, schema: schema)) }
        }
        _ = try? Baseline.parse(text)
    }

    /// The seeds' small exports of a Realtime Database layout, which a fuzzed schema is walked over.
    static let exports: [ExportBytes] = {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/seeds")
        let names = ["export-makestagram-small.json", "export-friendlypix-small.json", "export-instaclone-small.json"]
        let found = names.compactMap { name -> ExportBytes? in
            guard let data = FileManager.default.contents(atPath: seeds.appendingPathComponent(name).path) else {
                return nil
            }
            return ExportBytes(bytes: Array(data), source: name)
        }
        if found.isEmpty { FileHandle.standardError.write(Data("TextFuzz: no seed export in \(seeds.path)\n".utf8)) }
        return found
    }()
}
