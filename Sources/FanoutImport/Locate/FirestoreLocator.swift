import FanoutCore
import Foundation

/// Finds where findings of a Cloud Firestore export are: the `output-N` file and the byte offset of the record of
/// the document that each finding's first path names.
///
/// A finding's path is a path in the export's tree (``DocumentJSON/tree(_:)``): a document's path, collection and
/// ID by turns (`posts/abc`, `posts/abc/comments/c`), then maybe a field path in it (`posts/abc/commentCount`,
/// `posts/abc/moderation/checkedAt`). The document is the longest prefix of an even number of keys that is a
/// document of the export: the document itself, or for one the export lacks (a mirror's missing entry, a
/// subcollection's document that is gone, a document that does not exist but has subcollections) its nearest
/// ancestor that it has. A path under no document of the export is placed at the start of the first file, as a
/// JSON export's missing first key is placed at the start of the document.
///
/// The export is read again for it (its records decoded, not made into a tree): the first pass keeps no offsets.
/// Each location has the record's byte offset (``SourceLocation/byteOffset``: where its first header starts) and
/// the line and column of that byte, counted as in a text file, for the consumers that need a line.
enum FirestoreLocator {
    /// `findings` with their locations in the Firestore export at `path` (a folder or one `output-N` file), as the
    /// user gave it: file names are spelled from `path` (a relative `path` gives relative names, which code
    /// scanning resolves in the repository).
    static func locate(_ findings: [Finding], path: String) throws(InputError) -> [Finding] {
        let export = try FirestoreExport.read(path: path)
        guard !export.files.isEmpty else { return findings }
        var records: [[String]: (file: Int, offset: Int)] = [:]
        for document in export.documents where records[document.segments] == nil {
            records[document.segments] = (document.file, document.offset)
        }
        let places = findings.map { finding -> (file: Int, offset: Int) in
            let keys = (finding.paths.first ?? "").split(separator: "/" as Character, omittingEmptySubsequences: false)
                .map(String.init)
            var count = keys.count - keys.count % 2
            while count >= 2 {
                if let record = records[Array(keys.prefix(count))] { return record }
                count -= 2
            }
            return (0, 0)
        }
        // Lines and columns, per file in one sweep.
        let offsets = Dictionary(grouping: places, by: \.file).mapValues { $0.map(\.offset) }
        var positions: [Int: [Int: TextPosition]] = [:]
        for (file, wanted) in offsets {
            let bytes = try ExportBytes(path: export.files[file])
            positions[file] = TextPosition.positions(of: wanted, in: bytes.buffer)
        }
        let names = export.files.map { name($0, given: path) }
        return zip(findings, places).map { finding, place in
            var located = finding
            let position = positions[place.file]![place.offset]!
            located.location = SourceLocation(
                file: names[place.file], line: position.line, column: position.column, byteOffset: place.offset)
            return located
        }
    }

    /// `file`, a path under the folder `given` as ``FirestoreExport`` spells it (absolute), spelled from `given`
    /// as the user wrote it; a file given itself is its own name.
    static func name(_ file: String, given: String) -> String {
        guard file != given else { return given }
        let folder = URL(fileURLWithPath: given).path
        guard file.hasPrefix(folder + "/") else { return file }
        let rest = file.dropFirst(folder.count + 1)
        return given.hasSuffix("/") ? given + rest : given + "/" + rest
    }
}
