import FanoutCore
import FanoutJSON
import Foundation
import ZIPFoundation

/// Reads Parse exports: a folder or a zip of one JSON file per class (`_User.json`, `Post.json`, …).
///
/// Each class file is walked as the subtree under its class name, so a Parse schema is an ordinary schema
/// whose paths start with the class (`Like/{id}`), and findings name rows as `Like/<objectId>`. Files are
/// read in the schema's relation order (users, posts, likes, follows, flags), whatever order the folder or
/// archive lists them in, so the same export always gives the same dataset.
enum ParseExport {
    /// The classes `schema` reads: the first key of each relation's path, once each.
    static func classes(of schema: Schema) -> [String] { schema.rootKeys }

    /// Reads the class files in `folder` into the sink `makeSink` makes.
    static func read<Sink: FactSink>(
        folder: String, schema: Schema, warn: ((String) -> Void)? = nil, sink makeSink: (Schema) -> Sink
    ) throws(InputError) -> Sink {
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        var read = 0
        for className in classes(of: schema) {
            let path = (folder as NSString).appendingPathComponent("\(className).json")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let bytes = try ExportBytes(path: path)
            try walk(&walker, className, bytes, file: read)
            read += 1
        }
        let found = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        guard read > 0 else { throw notParse(folder, schema, found: found) }
        try check(walker, schema, folder, found: found, warn: warn)
        return walker.sink
    }

    /// Reads the class files in the zip archive `archive` whose bytes are `bytes` (from a file or standard input)
    /// into the sink `makeSink` makes.
    static func read<Sink: FactSink>(
        archive: Archive, bytes: ExportBytes, schema: Schema, warn: ((String) -> Void)? = nil,
        sink makeSink: (Schema) -> Sink
    ) throws(InputError) -> Sink {
        let source = bytes.source
        let wanted = classes(of: schema)
        var entries: [String: Entry] = [:]
        var names: [String] = []
        for entry in archive where entry.type == .file {
            names.append(entry.path)
            // Archives often hold the files in a folder (`export/Post.json`); the file name alone decides.
            let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            guard file.hasSuffix(".json") else { continue }
            let className = String(file.dropLast(".json".count))
            guard wanted.contains(className) else { continue }
            if let other = entries[className] {
                throw InputError.layout(
                    source: source, message: "the archive has two \(file) files, \(other.path) and \(entry.path)")
            }
            entries[className] = entry
        }
        guard !entries.isEmpty else { throw notParse(source, schema, found: names.sorted()) }
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        for (file, className) in wanted.enumerated() {
            guard let entry = entries[className] else { continue }
            let contents: [UInt8]
            do {
                contents = try ZipEntryReader.contents(of: entry, in: bytes.buffer)
            } catch {
                throw InputError.unreadable(
                    path: "\(source): \(entry.path)", reason: "cannot extract it from the archive: \(error.message)")
            }
            try walk(&walker, className, ExportBytes(bytes: contents, source: "\(source): \(entry.path)"), file: file)
        }
        try check(walker, schema, source, found: names.sorted(), warn: warn)
        return walker.sink
    }

    /// Opens the zip archive at `path`, or made of `bytes` (standard input).
    static func archive(path: String, bytes: ExportBytes) throws(InputError) -> Archive {
        do {
            if path == "-" { return try Archive(data: Data(bytes.buffer), accessMode: .read) }
            return try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw InputError.unreadable(path: bytes.source, reason: "not a readable zip archive (\(error))")
        }
    }

    /// Each class file's facts are placed after the previous file's: positions in file `file` start at `file << 44`
    /// (16 TB a file).
    private static func walk<Sink: FactSink>(
        _ walker: inout TreeWalker<Sink>, _ className: String, _ bytes: ExportBytes, file: Int
    ) throws(InputError) {
        let recognized: Bool
        do {
            recognized = try walker.runClass(className, bytes.buffer, positionBase: file << 44)
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        guard recognized else {
            throw InputError.layout(
                source: bytes.source,
                message: "not a Parse class export: expected {\"results\": [...]} or an array of \(className) objects")
        }
    }

    /// Reports the relations whose class file is missing or held nothing (see ``RelationMatches``).
    private static func check<Sink: FactSink>(
        _ walker: TreeWalker<Sink>, _ schema: Schema, _ source: String, found: [String], warn: ((String) -> Void)?
    ) throws(InputError) {
        let files = found.filter { $0.hasSuffix(".json") }
        let listed =
            files.isEmpty
            ? "the export has no class files"
            : "the export's class files are "
                + files.prefix(10).joined(separator: ", ") + (files.count > 10 ? ", … (\(files.count) in all)" : "")
        try RelationMatches(schema: schema, counts: walker.matches, declaredCounts: walker.declaredMatches).check(
            source: source, found: listed, warn: warn)
    }

    private static func notParse(_ source: String, _ schema: Schema, found: [String]) -> InputError {
        let expected = classes(of: schema).map { "\($0).json" }.joined(separator: ", ")
        let listed =
            found.isEmpty ? "nothing" : found.prefix(10).joined(separator: ", ") + (found.count > 10 ? ", …" : "")
        return InputError.layout(
            source: source, message: "not a \(schema.name) export: it has none of \(expected); it has \(listed)")
    }
}
