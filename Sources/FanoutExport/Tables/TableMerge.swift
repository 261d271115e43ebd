import FanoutCore
import FanoutImport
import FanoutJSON
import FanoutOutput
import Foundation

extension TableExport {
    /// The folder of part `part` inside a tables folder: `part-3-of-8` (docs/tables.md).
    public static func partFolder(_ part: ExportPart) -> String { "part-\(part.index + 1)-of-\(part.count)" }

    /// Makes `folder`, where `fanout tables --part K/N --out folder` wrote its N parts, the tables of the whole
    /// export: one `_manifest.json` whose tables list every part's files, in part order (the rows of each table in
    /// the order of the export, as one `fanout tables` would write them), with the rows counted together. The
    /// parts must all be there and agree: one export (name and size), one schema, the same options. Fails, writing
    /// nothing, with a message naming what is missing or differs.
    public static func merge(folder: String) throws -> Summary {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: folder)) ?? []
        var parts: [(index: Int, count: Int, name: String)] = []
        for name in names {
            let pieces = name.split(separator: "-")
            guard pieces.count == 4, pieces[0] == "part", pieces[2] == "of", let index = Int(pieces[1]),
                let count = Int(pieces[3]),
                index >= 1, index <= count
            else { continue }
            parts.append((index, count, name))
        }
        guard let count = parts.first?.count else {
            throw MergeError(
                "\(folder): no parts to merge (folders named part-K-of-N, which `fanout tables --part K/N --out \(folder)` writes)"
            )
        }
        let counts = Set(parts.map(\.count))
        guard counts.count == 1 else {
            throw MergeError(
                "\(folder): parts of \(counts.sorted().map(String.init).joined(separator: " and ")) parts; merge the parts of one run (remove the others)"
            )
        }
        let present = Set(parts.map(\.index))
        let missing = (1...count).filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw MergeError(
                "\(folder): parts \(missing.map { "\($0)" }.joined(separator: ", ")) of \(count) are missing; run `fanout tables EXPORT --part K/\(count) --out \(folder)` for each"
            )
        }
        parts.sort { $0.index < $1.index }
        var merged: JSONValue?
        var tables: [(name: String, columns: JSONValue, rows: Int64, files: [JSONValue])] = []
        for part in parts {
            let path = "\(folder)/\(part.name)/\(manifestName)"
            guard let data = fm.contents(atPath: path) else {
                throw MergeError("\(path): missing; the part was not written whole")
            }
            let manifest: JSONValue
            do {
                manifest = try data.withUnsafeBytes { (bytes) throws(JSONSyntaxError) in try JSONValue.parse(bytes) }
            } catch {
                throw MergeError("\(path): \(error)")
            }
            // Everything but the part and its tables' files and counts is the same in every part.
            let shared = manifest.objectMembers?.filter { $0.key != "part" && $0.key != "tables" } ?? []
            if let first = merged {
                guard JSONValue.object(shared) == first else {
                    throw MergeError(
                        "\(path): another export, schema or options than part 1's; merge the parts of one run")
                }
            } else {
                merged = .object(shared)
            }
            guard manifest["part"]?["index"]?.numberValue?.int64 == Int64(part.index),
                manifest["part"]?["count"]?.numberValue?.int64 == Int64(count),
                let members = manifest["tables"]?.objectMembers
            else { throw MergeError("\(path): not the manifest of part \(part.index) of \(count)") }
            for (i, (name, table)) in members.enumerated() {
                let files = (table["files"]?.arrayValue ?? []).compactMap(\.stringValue).map {
                    JSONValue.string("\(part.name)/\($0)")
                }
                let rows = table["rows"]?.numberValue?.int64 ?? 0
                if i < tables.count {
                    guard tables[i].name == name, tables[i].columns == table["columns"] else {
                        throw MergeError("\(path): its tables differ from part 1's")
                    }
                    tables[i].rows += rows
                    tables[i].files += files
                } else {
                    tables.append((name, table["columns"] ?? .null, rows, files))
                }
            }
        }
        var members = merged?.objectMembers ?? []
        members.append(
            (
                key: "tables",
                value: .object(
                    tables.map { table in
                        (
                            key: table.name,
                            value: .object([
                                ("columns", table.columns), ("files", .array(table.files)),
                                ("rows", .number(JSONNumber(table.rows))),
                            ])
                        )
                    })
            ))
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        try AtomicFile.write(JSONWriter(pretty: true).write(.object(members)) + "\n", to: "\(folder)/\(manifestName)")
        if !fm.fileExists(atPath: "\(folder)/\(StagedFolder.markerName)") {
            try AtomicFile.write(
                "Created by fanout. Fanout replaces this folder on the next build.\n",
                to: "\(folder)/\(StagedFolder.markerName)")
        }
        let schemaName = merged?["schema"]?["name"]?.stringValue ?? ""
        return Summary(rows: tables.map { Int($0.rows) }, schemaName: schemaName)
    }

    /// Why parts could not be merged (a usage error: exit code 2).
    public struct MergeError: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
