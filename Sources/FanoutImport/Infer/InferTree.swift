import FanoutJSON
import Foundation
import ZIPFoundation

/// An export read whole as one JSON tree for `fanout infer`: the tree a schema file's paths describe, whatever
/// the export's format (docs/layouts.md "Inferring a schema").
///
/// A Realtime Database file is its own tree; a Firestore export is the tree of its documents (the one
/// `fanout documents --tree` prints); a Parse export is an object of its class files, each an object of its rows
/// by `objectId`. Firebase's `.priority` keys are dropped and `.value` wrappers unwrapped, as the walker reads them.
package struct InferTree {
    package enum Format: Equatable { case firebase, parse }

    package let root: JSONValue
    package let format: Format
    /// The bytes read (after decompression), for the progress line and the measurements.
    package let bytes: Int

    package init(root: JSONValue, format: Format, bytes: Int = 0) {
        self.root = root
        self.format = format
        self.bytes = bytes
    }

    /// Reads the export at `path` (a file, `-`, a Firestore or emulator folder, a Parse folder or zip).
    package static func read(path: String) throws(InputError) -> InferTree {
        if path != "-", ExportLoader.isDirectory(path), try isFirestore(path) {
            let bytes = try ExportLoader.firestoreTree(path)
            return InferTree(root: try parse(bytes), format: .firebase, bytes: bytes.count)
        }
        if path != "-", ExportLoader.isDirectory(path) {
            return try parseFolder(path)
        }
        let bytes = try ExportBytes(path: path)
        if !bytes.wasCompressed, ExportLoader.isZip(bytes.buffer) {
            return try parseArchive(path: path, bytes: bytes)
        }
        if path != "-", try FirestoreExport.locate(path) != nil {
            let tree = try ExportLoader.firestoreTree(path)
            return InferTree(root: try parse(tree), format: .firebase, bytes: tree.count)
        }
        let root = try parse(bytes)
        guard root.objectMembers != nil else {
            throw InputError.layout(source: bytes.source, message: "not an export: its top level is not an object")
        }
        return InferTree(root: root, format: .firebase, bytes: bytes.count)
    }

    private static func isFirestore(_ path: String) throws(InputError) -> Bool {
        if try FirestoreExport.locate(path) != nil { return true }
        return try !FirestoreExport.databaseFiles(path).isEmpty
    }

    private static func parse(_ bytes: ExportBytes) throws(InputError) -> JSONValue {
        do throws(JSONSyntaxError) {
            return cleaned(try JSONValue.parse(bytes.buffer))
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
    }

    /// `.priority` keys dropped, `{".value": v}` read as `v`, a Firestore tree's `.absent` marker dropped.
    static func cleaned(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            if let wrapped = members.first(where: { $0.key == ".value" }) { return cleaned(wrapped.value) }
            return .object(
                members.filter { $0.key != ".priority" && $0.key != ".absent" }.map { ($0.key, cleaned($0.value)) })
        case .array(let elements): return .array(elements.map(cleaned))
        default: return value
        }
    }

    /// A Parse export's class files as one object: each class an object of its rows, keyed by `objectId`.
    private static func parseFolder(_ folder: String) throws(InputError) -> InferTree {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var classes: [(String, JSONValue)] = []
        var total = 0
        for name in names where name.hasSuffix(".json") {
            let bytes = try ExportBytes(path: (folder as NSString).appendingPathComponent(name))
            total += bytes.count
            classes.append((String(name.dropLast(5)), try rows(try parse(bytes), source: bytes.source)))
        }
        guard !classes.isEmpty else {
            throw InputError.layout(source: folder, message: "not a Parse export: the folder holds no .json class file")
        }
        return InferTree(root: .object(classes), format: .parse, bytes: total)
    }

    private static func parseArchive(path: String, bytes: ExportBytes) throws(InputError) -> InferTree {
        let archive = try ParseExport.archive(path: path, bytes: bytes)
        var classes: [(String, JSONValue)] = []
        var total = 0
        for entry in archive where entry.type == .file {
            let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            guard file.hasSuffix(".json"), !file.hasPrefix(".") else { continue }
            let contents: [UInt8]
            do {
                contents = try ZipEntryReader.contents(of: entry, in: bytes.buffer)
            } catch {
                throw InputError.unreadable(
                    path: "\(bytes.source): \(entry.path)",
                    reason: "cannot extract it from the archive: \(error.message)")
            }
            total += contents.count
            let source = "\(bytes.source): \(entry.path)"
            classes.append(
                (
                    String(file.dropLast(5)),
                    try rows(try parse(ExportBytes(bytes: contents, source: source)), source: source)
                ))
        }
        guard !classes.isEmpty else {
            throw InputError.layout(
                source: bytes.source, message: "not a Parse export: the archive holds no .json class file")
        }
        classes.sort { $0.0 < $1.0 }
        return InferTree(root: .object(classes), format: .parse, bytes: total)
    }

    /// A class file's rows (`{"results": [...]}` or a bare array) by their `objectId` (or their index).
    private static func rows(_ value: JSONValue, source: String) throws(InputError) -> JSONValue {
        guard let list = value["results"]?.arrayValue ?? value.arrayValue else {
            throw InputError.layout(
                source: source,
                message: "not a Parse class export: expected {\"results\": [...]} or an array of objects")
        }
        return .object(list.enumerated().map { index, row in (row["objectId"]?.stringValue ?? String(index), row) })
    }
}
