import FanoutCore
import TOMLKit

/// Reads schema files: TOML documents saying where each relation of the domain lives in an export.
///
/// The format is documented in docs/layouts.md ("Schema files"); the presets are schema files too (`fanout schemas show
/// NAME`). Every problem is reported as ``InputError/schema(_:)`` naming the file, the line and the key, e.g.
/// `myapp.toml: line 9: posts.created_at.unit: "mss" is not a unit; use s, ms, us or iso8601, or a format …`.
public enum SchemaFile {
    /// Reads the schema file at `path`.
    public static func load(path: String) throws(InputError) -> Schema {
        let bytes: ExportBytes
        do {
            bytes = try ExportBytes(path: path)
        } catch {
            if case .unreadable(_, let reason) = error {
                throw InputError.schema("cannot read schema file \(path): \(reason)")
            }
            throw error
        }
        let text = String(decoding: bytes.buffer, as: UTF8.self)
        var name = String(path.split(separator: "/").last ?? Substring(path))
        if name.hasSuffix(".toml") { name.removeLast(".toml".count) }
        return try parse(text, source: path, defaultName: name)
    }

    /// Parses schema file `text`; `source` names it in messages, `defaultName` is used when it sets no `name`.
    public static func parse(_ text: String, source: String, defaultName: String) throws(InputError) -> Schema {
        if let at = TOMLHeaderCheck.firstBadHeader(in: text) {
            throw InputError.schema(
                "\(source): invalid TOML at line \(at.line), column \(at.column): \(TOMLHeaderCheck.message)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            throw InputError.schema(
                "\(source): invalid TOML at line \(at.line), column \(at.column): \(error.description)")
        } catch {
            throw InputError.schema("\(source): invalid TOML: \(error)")
        }
        return try SchemaFileParser(source: source, map: TOMLSourceMap(text)).schema(
            from: table, defaultName: defaultName)
    }
}
