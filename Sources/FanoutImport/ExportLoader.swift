import FanoutCore
import FanoutJSON

/// Reads exports into the domain core.
public enum ExportLoader {
    /// Reads `bytes` laid out as `schema` into a dataset.
    ///
    /// Throws ``InputError/syntax(source:_:)`` for malformed JSON (with line and column) and
    /// ``InputError/layout(source:message:)`` for JSON that is not an export of this layout.
    public static func load(_ bytes: ExportBytes, schema: Schema) throws(InputError) -> Dataset {
        var walker = try TreeWalker(buffer: bytes.buffer, schema: schema)
        do {
            try walker.run()
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        guard walker.rootWasObject else {
            throw InputError.layout(
                source: bytes.source,
                message: "not a Firebase export: its top level is not an object with keys like \(Self.expected(schema))")
        }
        guard walker.matchedRootKeys > 0 else {
            let found = walker.rootKeys.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
            throw InputError.layout(
                source: bytes.source,
                message: "not a \(schema.name) export: its top-level keys are \(found); expected \(Self.expected(schema))")
        }
        return walker.dataset
    }

    /// Reads the file at `path` (or standard input for `-`) laid out as `schema`.
    public static func load(path: String, schema: Schema) throws(InputError) -> Dataset {
        try load(try ExportBytes(path: path), schema: schema)
    }

    private static func expected(_ schema: Schema) -> String {
        let roots = [
            schema.users?.pattern, schema.posts?.pattern, schema.likes?.pattern, schema.likeMirror?.pattern,
            schema.following?.pattern, schema.followers?.pattern, schema.timeline?.pattern,
        ].compactMap { pattern -> String? in
            guard case .literal(let text)? = pattern?.segments.first else { return nil }
            return "\"\(text)\""
        }
        var seen = Set<String>()
        return roots.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}
