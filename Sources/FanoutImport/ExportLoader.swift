#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FanoutCore
import FanoutJSON

/// Reads exports into the domain core.
public enum ExportLoader {
    /// Reads the export at `path` laid out as `schema`, or as the preset its top-level keys name when `schema`
    /// is nil.
    ///
    /// `path` is a Firebase JSON file (plain or gzip, recognized by its content), `-` for standard input, or a
    /// Parse export: a folder or a `.zip` of class files. Throws ``InputError`` for anything unreadable.
    /// `progress`, when given, is called every few megabytes of a JSON export with the bytes read and the total.
    /// `warn`, when given, is called with each warning about the schema and the export: a relation whose path
    /// matched nothing (`export.json: [likes] path "postLikes/{post}/{user}" matched nothing; …`).
    public static func load(
        path: String, schema: Schema?, progress: ((_ read: Int, _ total: Int) -> Void)? = nil,
        warn: ((String) -> Void)? = nil
    ) throws(InputError) -> Dataset {
        if path != "-", isDirectory(path) {
            return try ParseExport.load(folder: path, schema: try parseSchema(schema, path, what: "a folder"), warn: warn)
        }
        let bytes = try ExportBytes(path: path)
        if !bytes.wasCompressed, isZip(bytes.buffer) {
            let schema = try parseSchema(schema, bytes.source, what: "a zip archive")
            return try ParseExport.load(
                archive: ParseExport.archive(path: path, bytes: bytes), bytes: bytes, schema: schema, warn: warn)
        }
        if let schema { return try load(bytes, schema: schema, foreignKeys: [:], progress: progress, warn: warn) }
        let choice = try LayoutDetector.detect(bytes)
        return try load(bytes, schema: choice.schema, foreignKeys: choice.foreignKeys, progress: progress, warn: warn)
    }

    /// Reads Firebase export `bytes` laid out as `schema`.
    ///
    /// Throws ``InputError/syntax(source:_:)`` for malformed JSON (with line and column) and
    /// ``InputError/layout(source:message:)`` for JSON that is not an export of this layout.
    public static func load(_ bytes: ExportBytes, schema: Schema) throws(InputError) -> Dataset {
        try load(bytes, schema: schema, foreignKeys: [:], progress: nil)
    }

    /// `splitTarget`: where a second walker should take over (see `SplitRead`); by default near the middle
    /// of exports large enough to be worth it, nil to read with one walker.
    static func load(
        _ bytes: ExportBytes, schema: Schema, foreignKeys: [String: String], progress: ((Int, Int) -> Void)?,
        warn: ((String) -> Void)? = nil, splitTarget: Int?? = nil
    ) throws(InputError) -> Dataset {
        guard schema.format == .firebase else {
            throw InputError.layout(
                source: bytes.source,
                message: "the \(schema.name) schema reads a Parse export, a folder or .zip of class files, not one JSON document")
        }
        var walker = try TreeWalker(schema: schema)
        walker.watchedRootKeys = foreignKeys.keys.sorted()
        walker.progress = progress
        walker.releasesConsumedPages = bytes.isMapped
        let count = bytes.buffer.count
        let target = splitTarget ?? (count >= SplitRead.minimumBytes ? Int(Double(count) * SplitRead.splitFraction) : nil)
        var second: TreeWalker?
        if target != nil {
            second = try TreeWalker(schema: schema)
            second?.watchedRootKeys = walker.watchedRootKeys
            second?.releasesConsumedPages = walker.releasesConsumedPages
        }
        do throws(JSONSyntaxError) {
            if let target, let second {
                // A target the caller chose (tests) is always split at, however late the second thread starts.
                try SplitRead.run(
                    &walker, second: second, buffer: bytes.buffer, target: target,
                    waitForSecondWalker: splitTarget != nil)
            } else {
                try walker.run(bytes.buffer)
            }
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        guard walker.rootWasObject else {
            throw InputError.layout(
                source: bytes.source,
                message: "not a Firebase export: its top level is not an object with keys like \(expected(schema))")
        }
        let found = LayoutDetector.foundKeys(walker.rootKeys, total: walker.rootKeyCount)
        guard walker.matchedRootKeys > 0 else {
            throw InputError.layout(
                source: bytes.source,
                message: "not \(LayoutDetector.article(schema.name)) \(schema.name) export: \(found); expected \(expected(schema))")
        }
        if !walker.seenWatchedKeys.isEmpty {
            throw LayoutDetector.mixed(bytes.source, chosen: schema, seen: walker.seenWatchedKeys, foreignKeys: foreignKeys)
        }
        try RelationMatches(schema: schema, counts: walker.matches).check(
            source: bytes.source,
            found: LayoutDetector.foundKeys(walker.rootKeys, total: walker.rootKeyCount, subject: "the export's"), warn: warn)
        return walker.dataset
    }

    /// The schema for a Parse export at `source`: the one given, which must be a Parse schema, or the preset.
    private static func parseSchema(_ schema: Schema?, _ source: String, what: String) throws(InputError) -> Schema {
        guard let schema else { return Presets.named("parse")! }
        guard schema.format == .parse else {
            throw InputError.layout(
                source: source,
                message: "\(what) is read as a Parse export, but the \(schema.name) schema reads one Firebase JSON file; "
                    + "omit --schema or use a schema with format = \"parse\"")
        }
        return schema
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty archive).
    private static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B else { return false }
        return (bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6)
    }

    private static func expected(_ schema: Schema) -> String {
        schema.rootKeys.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
