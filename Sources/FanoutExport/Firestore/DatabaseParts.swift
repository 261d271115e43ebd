import FanoutCore
import FanoutImport

/// A repair of an emulator folder, split by the database each path of the patch lies in: one part per Realtime
/// Database file (one namespace each) and the rest for Firestore. A path whose first key is a top-level key of a
/// database file is that file's; when several files have the key (a database sharded by user), the file that
/// holds most of the path, the first on a tie, as findings are located.
package struct DatabaseParts {
    /// The Firestore part's patch (every path no database file has, when the folder has Firestore).
    package var firestore: RepairPatch
    /// Each database file with its bytes and its part of the patch, in the folder's order.
    package var databases: [(path: String, bytes: ExportBytes, patch: RepairPatch)]

    /// `patch` split over `files` (the emulator folder's database files); with `hasFirestore` false, a path no file
    /// has goes to the first file.
    package init(_ patch: RepairPatch, files: [String], hasFirestore: Bool) throws {
        var best: [Int: (file: Int, depth: Int)] = [:]
        var read: [ExportBytes] = []
        for (n, file) in files.enumerated() {
            let bytes = try ExportBytes(path: file)
            read.append(bytes)
            let keys = Set(try ExportLoader.databaseKeys(bytes))
            let mine = patch.entries.indices.filter {
                keys.contains(String(patch.entries[$0].path.prefix { $0 != "/" })) || (!hasFirestore && n == 0)
            }
            guard !mine.isEmpty else { continue }
            let places = try PathLocator.placed(mine.map { patch.entries[$0].path }, in: bytes.buffer)
            for i in mine {
                let depth = places[patch.entries[i].path]!.depth
                if best[i].map({ depth > $0.depth }) ?? true { best[i] = (n, depth) }
            }
        }
        firestore = RepairPatch(patch.entries.indices.filter { best[$0] == nil }.map { patch.entries[$0] })
        databases = files.indices.map { n in
            (
                files[n], read[n],
                RepairPatch(patch.entries.indices.filter { best[$0]?.file == n }.map { patch.entries[$0] })
            )
        }
    }
}
