import FanoutCore
import FanoutImport

/// A repair of an emulator folder, split by the database each path of the patch lies in: one part per Realtime
/// Database file (one namespace each) and the rest for Firestore. A path whose first key is a top-level key of a
/// database file is that file's, placed as findings are (``DatabaseFilePlaces``).
package struct DatabaseParts {
    /// The Firestore part's patch (every path no database file has, when the folder has Firestore).
    package var firestore: RepairPatch
    /// Each database file with its bytes and its part of the patch, in the folder's order.
    package var databases: [(path: String, bytes: ExportBytes, patch: RepairPatch)]

    /// `patch` split over `files` (the emulator folder's database files); with `hasFirestore` false, a path no file
    /// has goes to the first file.
    package init(_ patch: RepairPatch, files: [String], hasFirestore: Bool) throws {
        let placed = try DatabaseFilePlaces(
            patch.entries.map(\.path), files: files, firstTakesTheRest: !hasFirestore)
        let entries = { (file: Int?) in
            RepairPatch(patch.entries.indices.filter { placed.places[$0]?.file == file }.map { patch.entries[$0] })
        }
        firestore = entries(nil)
        databases = files.indices.map { n in (files[n], placed.bytes[n], entries(n)) }
    }
}
