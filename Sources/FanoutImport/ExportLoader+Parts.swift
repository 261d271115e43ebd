import FanoutCore
import FanoutJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One of `count` parts of an export that as many processes read at once (`fanout tables --part K/N`,
/// docs/tables.md): `index` from 0.
public struct ExportPart: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }
}

extension ExportLoader {
    /// Reads part `part` of the export at `path` (a plain JSON file) into a table row sink, in bounded memory.
    ///
    /// The export is cut where a split read would cut it (``TreeWalker/findSplits(in:near:)``): after a member of
    /// a top-level section, at the first such place at or after `index / count` of the file. Part `index` reads
    /// from its place to the next part's, found by the same skim, so the parts together read every fact once, each
    /// at its position in the file (the `seq` of its rows). A part whose place is the next one's, or that has no
    /// place (the last section is one member), reads nothing. The relations' "matched nothing" checks need the
    /// whole export and are left to `fanout check` or `fanout tables` without `--part`.
    package static func readRows(
        path: String, schema: Schema?, part: ExportPart, progress: ((_ read: Int, _ total: Int) -> Void)?,
        sink makeSink: (Schema) -> TableRowSink
    ) throws(InputError) -> TableRowSink {
        if path == "-" {
            throw InputError.layout(
                source: "standard input",
                message: "--part reads a byte range of a file: save the export to a file first")
        }
        if try FirestoreExport.locate(path) != nil {
            return try readFirestoreRows(path: path, schema: schema, part: part, sink: makeSink)
        }
        if isDirectory(path) {
            throw InputError.layout(
                source: path,
                message: "a folder (a Parse export); --part reads a byte range of one JSON file: read the folder whole")
        }
        // Checked before the file is opened as an export, which would inflate all of it.
        if isGzip(path) {
            throw InputError.layout(
                source: path,
                message: "gzip-compressed; --part reads a byte range of the file: inflate it first "
                    + "(gunzip -k \(path)), then give each part the inflated file")
        }
        let bytes = try ExportBytes(path: path, spooling: true)
        if bytes.wasCompressed {
            throw InputError.layout(
                source: path,
                message: "gzip-compressed; --part reads a byte range of the file: inflate it first "
                    + "(gunzip -k \(path)), then give each part the inflated file")
        }
        if isZip(bytes.buffer) {
            throw InputError.layout(
                source: path,
                message: "a zip archive (a Parse export); --part reads a byte range of one JSON file: read it whole")
        }
        let choice: LayoutDetector.Choice
        if let schema {
            choice = LayoutDetector.Choice(schema: schema, foreignKeys: [:])
        } else {
            choice = try LayoutDetector.detect(bytes)
        }
        let schema = choice.schema
        guard schema.format == .firebase else {
            throw InputError.layout(
                source: bytes.source,
                message:
                    "the \(schema.name) schema reads a Parse export, a folder or .zip of class files, not one JSON document"
            )
        }
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        walker.watchedRootKeys = choice.foreignKeys.keys.sorted()
        walker.progress = progress
        walker.releasesConsumedPages = bytes.isMapped
        walker.releasesSkimmedPages = bytes.isMapped
        let size = bytes.buffer.count
        // Where this part starts and where the next starts, in one skim.
        let bounds = [part.index, part.index + 1].filter { $0 > 0 && $0 < part.count }
        let places = walker.findSplits(
            in: bytes.buffer, near: bounds.map { Int(Double(size) * Double($0) / Double(part.count)) })
        let start = part.index == 0 ? nil : places[0]
        let end = part.index == part.count - 1 ? nil : places.last!
        if part.index > 0 && (start == nil || start?.position.offset == end?.position.offset) { return walker.sink }
        walker.partEnd = end
        do throws(JSONSyntaxError) {
            if let start { try walker.resume(bytes.buffer, at: start) } else { try walker.run(bytes.buffer) }
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        if part.index == 0, !walker.rootWasObject {
            throw InputError.layout(
                source: bytes.source, message: "not a Firebase export: its top level is not an object")
        }
        if !walker.seenWatchedKeys.isEmpty {
            throw LayoutDetector.mixed(
                bytes.source, chosen: schema, seen: walker.seenWatchedKeys, foreignKeys: choice.foreignKeys)
        }
        return walker.sink
    }

    /// Part `part` of a Firestore export: its records (``FirestoreExport/read(path:part:)``) as a tree of their own,
    /// walked whole. Each document's facts come from its own path and fields, so the parts together read each fact
    /// once; a parent a part lacks is absent in its tree and is read by the part that holds it.
    private static func readFirestoreRows(
        path: String, schema: Schema?, part: ExportPart, sink makeSink: (Schema) -> TableRowSink
    ) throws(InputError) -> TableRowSink {
        if let schema {
            // Each part's trees are its own; its rows' `seq` follow the previous parts', as a JSON file's parts do.
            return try walkFirestore(
                path: path, schema: schema, foreignKeys: [:], part: part, positionBase: part.index << 44, warn: nil,
                sink: makeSink)
        }
        let export = try FirestoreExport.read(path: path, part: (part.index, part.count))
        let tree: [UInt8]
        do {
            tree = try DocumentJSON.tree(export.documents)
        } catch {
            throw InputError.layout(source: path, message: "the document \(error.path) is stored twice")
        }
        let bytes = ExportBytes(bytes: tree, source: path)
        guard let schema else {
            throw InputError.layout(
                source: path,
                message: "--part of a Firestore export needs --schema: a part's collections may not tell the layout")
        }
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        do throws(JSONSyntaxError) {
            // Each part's tree is its own; its rows' `seq` follow the previous parts', as a JSON file's parts do.
            try walker.run(bytes.buffer, positionBase: part.index << 44)
        } catch {
            throw InputError.syntax(source: path, error)
        }
        return walker.sink
    }

    /// Whether the file at `path` starts with gzip's magic bytes.
    private static func isGzip(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var magic: (UInt8, UInt8) = (0, 0)
        return withUnsafeMutableBytes(of: &magic) { fread($0.baseAddress, 1, 2, file) } == 2 && magic == (0x1F, 0x8B)
    }
}
