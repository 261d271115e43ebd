import ArgumentParser
import FanoutCore
import FanoutImport
import FanoutRender
import Foundation

/// `fanout export`: writes the canonical snapshot of the derived data, and on request the repair.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write snapshot.json: timelines, like counts and likers in canonical, byte-stable JSON.",
        discussion: """
            With --repair, also write repair.patch.json, one Firebase multi-path update (path → value, null \
            deletes) that repairs every finding with a mechanical fix, and repaired.json, the export with the \
            patch applied. The README's "Repair" section says which copy is the source of truth for each relation.
            """
    )

    @OptionGroup var input: ExportOptions

    @Option(name: .shortAndLong, help: "The folder to write into (created when missing).")
    var out: String

    @ArgumentParser.Flag(help: "Also write repair.patch.json and repaired.json.")
    var repair = false

    func run() throws {
        guard repair else {
            let analysis = try Analysis(input)
            let path = (out as NSString).appendingPathComponent("snapshot.json")
            try FileOutput.write(Snapshot.render(analysis.dataset, analysis.derived), to: path)
            printStatus("wrote \(path)")
            return
        }
        let source = try RepairSource(input)
        defer { source.remove() }
        let analysis = try source.analysis()
        guard analysis.dataset.schema.format == .firebase else {
            throw UsageError(message: "--repair writes a Firebase multi-path update, but \(input.export) is a "
                + "\(analysis.dataset.schema.format.rawValue) export")
        }
        let patch = RepairPlanner.plan(CheckContext(dataset: analysis.dataset, derived: analysis.derived))
        let folder = out as NSString
        let repaired = folder.appendingPathComponent("repaired.json")
        // The repaired export streams into a temporary file that replaces repaired.json only once complete.
        let bytes = try ExportBytes(path: source.path)
        try StreamedFile.write(to: repaired) { write in
            try PatchApplier.apply(patch, to: bytes.buffer, write: write)
        }
        try FileOutput.write(Snapshot.render(analysis.dataset, analysis.derived), to: folder.appendingPathComponent("snapshot.json"))
        try FileOutput.write(patch.render(), to: folder.appendingPathComponent("repair.patch.json"))
        try StreamedFile.commit(repaired)
        let count = patch.entries.count
        printStatus("wrote \(folder.appendingPathComponent("snapshot.json")), "
            + "\(folder.appendingPathComponent("repair.patch.json")) (\(count) update\(count == 1 ? "" : "s")) and \(repaired)")
    }
}
