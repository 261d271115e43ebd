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
/// ancestor that it has.
///
/// The export is read again for it (its records decoded, not made into a tree): the first pass keeps no offsets.
/// Each location has the record's byte offset (``SourceLocation/byteOffset``: where its first header starts) and
/// the line and column of that byte, counted as in a text file, for the consumers that need a line.
enum FirestoreLocator {
    /// `findings` with their locations in the Firestore export at `path` (a folder or one `output-N` file), as the
    /// user gave it: file names are spelled from `path` (a relative `path` gives relative names, which code
    /// scanning resolves in the repository). In an emulator folder that holds the Realtime Database too, a
    /// finding whose path starts with a top-level key of one of its JSON files is located in that file, as a JSON
    /// export's findings are (a line and column, no byte offset).
    static func locate(_ findings: [Finding], path: String) throws(InputError) -> [Finding] {
        let export = try FirestoreExport.locate(path) != nil ? try FirestoreExport.read(path: path) : nil
        let files = export?.files ?? []
        var records: [[String]: (file: Int, offset: Int)] = [:]
        for document in export?.documents ?? [] where records[document.segments] == nil {
            records[document.segments] = (document.file, document.offset)
        }
        let firstPaths = findings.map { $0.paths.first ?? "" }
        let places = firstPaths.map { first -> (file: Int, offset: Int)? in
            let keys = first.split(separator: "/" as Character, omittingEmptySubsequences: false).map(String.init)
            var count = keys.count - keys.count % 2
            while count >= 2 {
                if let record = records[Array(keys.prefix(count))] { return record }
                count -= 2
            }
            return nil
        }
        var locations = [SourceLocation?](repeating: nil, count: findings.count)
        try locateInDatabases(
            firstPaths, unplaced: places.indices.filter { places[$0] == nil }, path: path,
            anywhere: files.isEmpty, into: &locations)
        // Lines and columns, per file in one sweep; a path under no document nor database key is placed at the
        // start of the first file, as a JSON export's missing first key is placed at the start of the document.
        let unlocated = places.indices.filter { locations[$0] == nil && !files.isEmpty }
        let offsets = Dictionary(grouping: unlocated, by: { places[$0]?.file ?? 0 }).mapValues { indices in
            indices.map { places[$0]?.offset ?? 0 }
        }
        var positions: [Int: [Int: TextPosition]] = [:]
        for (file, wanted) in offsets {
            let bytes = try ExportBytes(path: files[file])
            positions[file] = TextPosition.positions(of: wanted, in: bytes.buffer)
        }
        for i in unlocated {
            let place = places[i] ?? (0, 0)
            let position = positions[place.file]![place.offset]!
            locations[i] = SourceLocation(
                file: name(files[place.file], given: path), line: position.line, column: position.column,
                byteOffset: place.offset)
        }
        return zip(findings, locations).map { finding, location in
            var located = finding
            if let location { located.location = location }
            return located
        }
    }

    /// Locates the findings at `unplaced` whose first path starts with a top-level key of one of the emulator
    /// folder's Realtime Database files, in the file that holds most of the path (``DatabaseFilePlaces``); with
    /// `anywhere` (a folder without Firestore files) the others too, in the first database file.
    private static func locateInDatabases(
        _ firstPaths: [String], unplaced: [Int], path: String, anywhere: Bool, into locations: inout [SourceLocation?]
    ) throws(InputError) {
        let placed = try DatabaseFilePlaces(
            unplaced.map { firstPaths[$0] }, files: try FirestoreExport.databaseFiles(path),
            firstTakesTheRest: anywhere)
        for (n, i) in unplaced.enumerated() {
            guard let place = placed.places[n] else { continue }
            locations[i] = SourceLocation(
                file: name(placed.files[place.file], given: path), line: place.position.line,
                column: place.position.column)
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
