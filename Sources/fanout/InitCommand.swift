import ArgumentParser
import FanoutImport
import FanoutRender
import Foundation

/// `fanout init DIR`: scaffolds a site project to edit and build.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Scaffold a site project: fanout.toml, Content/ with a sample page, Templates/ with every built-in template.",
        discussion: """
            The folder must be missing or empty, so that nothing of yours is overwritten. Then run `fanout build` \
            in it: it reads fanout.toml, the pages of Content/ and the templates of Templates/ (a template \
            deleted there falls back to the built-in one).
            """
    )

    @Argument(help: "The folder to create (it must be missing or empty).")
    var directory: String

    @Option(help: ArgumentHelp(
        "The export the project builds, written into fanout.toml (relative paths are kept relative to DIR). "
            + "Default: export.json.", valueName: "FILE"))
    var export: String = "export.json"

    func run() throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw UsageError(message: "\(directory): exists and is not a folder") }
            let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw UsageError(message: "\(directory): the folder is not empty; fanout init only scaffolds into a "
                    + "missing or empty folder, so that nothing is overwritten")
            }
        }
        // Files go to a staging folder first, so a failure leaves nothing half-written.
        let target = URL(fileURLWithPath: directory)
        let staging = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).fanout-init-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try? manager.removeItem(at: staging)
            var files: [String: String] = [
                ProjectConfig.fileName: ProjectScaffold.configFile(export: export),
                "Content/about.md": ProjectScaffold.samplePage,
            ]
            for (name, text) in BuiltinTemplateFiles.files { files["Templates/\(name)"] = text }
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                let url = staging.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            if manager.fileExists(atPath: directory) { try manager.removeItem(at: target) }
            try manager.moveItem(at: staging, to: target)
        } catch {
            try? manager.removeItem(at: staging)
            throw UsageError(message: "\(directory): cannot write the project: \(error.localizedDescription)")
        }
        printStatus("\(directory)/: wrote \(ProjectConfig.fileName), Content/about.md and "
            + "\(BuiltinTemplateFiles.files.count) files in Templates/; run `fanout build` there")
    }
}
