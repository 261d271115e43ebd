import ArgumentParser
import FanoutCore
import FanoutExport
import FanoutImport
import FanoutOutput
import Foundation

/// `fanout export`: writes the canonical snapshot of the derived data, and on request the repair.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write snapshot.json: timelines, like counts and likers in canonical, byte-stable JSON.",
        discussion: """
            With --repair, also write repair.patch.json, one Firebase multi-path update (path → value, null \
            deletes) that repairs every finding with a mechanical fix, and repaired.json, the export with the \
            patch applied. docs/repair.md says which copy is the source of truth for each relation.
            """
    )

    @OptionGroup var input: ExportOptions

    @Option(name: .shortAndLong, help: "The folder to write into (created when missing).")
    var out: String

    @ArgumentParser.Flag(help: "Also write repair.patch.json and repaired.json.")
    var repair = false

    func run() throws {
        let export = try input.input(try input.project())
        let lock = OutputLock.taking(out)
        defer { lock.release() }
        let folder = out as NSString
        let snapshotPath = folder.appendingPathComponent("snapshot.json")
        guard repair else {
            let analysis = try Analysis(export)
            try AtomicFile.write(Snapshot.render(analysis.dataset, analysis.derived), to: snapshotPath)
            printStatus("wrote \(snapshotPath)")
            return
        }
        // Standard input cannot be read twice: its bytes are kept for the second pass that writes repaired.json.
        let analysis = try Analysis(export, keepsStandardInput: true)
        guard analysis.dataset.schema.format == .firebase else {
            throw UsageError(
                message: "--repair writes a Firebase multi-path update, but \(export.path) is a "
                    + "\(analysis.dataset.schema.format.rawValue) export")
        }
        let patch = RepairPlanner.plan(CheckContext(dataset: analysis.dataset, derived: analysis.derived))
        let patchPath = folder.appendingPathComponent("repair.patch.json")
        if export.path != "-" {
            let hasFirestore = FirestoreExport.recognizes(export.path)
            let databases = try FirestoreExport.databaseFiles(export.path)
            if hasFirestore || !databases.isEmpty {
                try writeFirestoreRepair(
                    patch, analysis: analysis, path: export.path, hasFirestore: hasFirestore, databases: databases,
                    snapshot: snapshotPath, patch: patchPath)
                return
            }
        }
        let repairedPath = folder.appendingPathComponent("repaired.json")
        // The repaired export streams into a temporary file that replaces repaired.json only once complete.
        let bytes = try analysis.exportBytes()
        let repaired = try AtomicFile(path: repairedPath)
        try PatchApplier.apply(patch, to: bytes.buffer) { chunk in try repaired.append(chunk) }
        try AtomicFile.write(Snapshot.render(analysis.dataset, analysis.derived), to: snapshotPath)
        try AtomicFile.write(patch.render(), to: patchPath)
        try repaired.commit()
        let count = patch.entries.count
        printStatus("wrote \(snapshotPath), \(patchPath) (\(count) update\(count == 1 ? "" : "s")) and \(repairedPath)")
    }

    /// A Firestore export's (`hasFirestore`) or an emulator folder's (its `databases` files) repair: the patch as `documents:commit` writes
    /// (repair.commit.json) and the export with it applied, as an emulator folder (repaired/) holding each
    /// Realtime Database file of the folder repaired too (its part of the patch: ``DatabaseParts``), beside the
    /// patch in the tree's paths that the findings name.
    private func writeFirestoreRepair(
        _ patch: RepairPatch, analysis: Analysis, path: String, hasFirestore: Bool, databases: [String],
        snapshot: String, patch patchPath: String
    ) throws {
        let folder = out as NSString
        let parts = try DatabaseParts(patch, files: databases, hasFirestore: hasFirestore)
        let source = hasFirestore ? try FirestoreExport.read(path: path) : nil
        let documents = source?.documents ?? []
        let project = source?.project ?? EmulatorFolder.defaultProject
        let commit = FirestoreCommit(parts.firestore, documents: documents, project: project)
        var databases: [(name: String, bytes: [UInt8])] = []
        for database in parts.databases {
            databases.append(
                (
                    (database.path as NSString).lastPathComponent,
                    try PatchApplier.apply(database.patch, to: database.bytes.buffer)
                ))
        }
        let commitPath = folder.appendingPathComponent("repair.commit.json")
        let repairedPath = folder.appendingPathComponent("repaired")
        try EmulatorFolder.write(
            commit.apply(to: documents), project: project, to: repairedPath, databases: databases,
            firestore: hasFirestore)
        try AtomicFile.write(Snapshot.render(analysis.dataset, analysis.derived), to: snapshot)
        try AtomicFile.write(patch.render(), to: patchPath)
        guard hasFirestore else {
            let count = patch.entries.count
            printStatus("wrote \(snapshot), \(patchPath) (\(count) update\(count == 1 ? "" : "s")) and \(repairedPath)")
            return
        }
        try AtomicFile.write(commit.render(), to: commitPath)
        let count = commit.writes.count
        printStatus(
            "wrote \(snapshot), \(patchPath), \(commitPath) (\(count) write\(count == 1 ? "" : "s")) and \(repairedPath)"
        )
    }
}
