import ArgumentParser
import FanoutOutput
import FanoutReports
import Foundation

/// `fanout init DIR`: scaffolds a site project to edit and build.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract:
            "Scaffold a site project: fanout.toml, an export, Content/ with a sample page, Templates/ with every built-in template.",
        discussion: """
            The folder must be missing or empty, so that nothing of yours is overwritten. Without --export the \
            project gets the demo export as export.json, so that `fanout build` run in it works at once; replace \
            the file with your own export, or point `export` in fanout.toml at it. Then run `fanout build` in \
            the folder: it reads fanout.toml, the pages of Content/ and the templates of Templates/ (a template \
            deleted there falls back to the built-in one).
            """
    )

    @Argument(help: "The folder to create (it must be missing or empty).")
    var directory: String

    @Option(
        help: ArgumentHelp(
            "The export the project builds: a file or Parse export folder, which must exist (a relative path is "
                + "relative to the current folder; fanout.toml gets it relative to DIR). Default: the demo export, "
                + "written to DIR/export.json.", valueName: "FILE"))
    var export: String?

    func run() throws {
        // The export is checked before anything is written (docs/site.md "Site projects").
        let exportPath = try export.map(projectPath) ?? ProjectScaffold.demoExportName
        var files: [String: String] = [
            ProjectConfig.fileName: ProjectScaffold.configFile(export: exportPath, isDemo: export == nil),
            "Content/about.md": ProjectScaffold.samplePage,
        ]
        if export == nil { files[ProjectScaffold.demoExportName] = DemoExport.text }
        for (name, text) in BuiltinTemplateFiles.files { files["Templates/\(name)"] = text }
        // The project is written whole or not at all, and only into a missing or empty folder.
        let folder = try StagedFolder(path: directory, claim: .newFolder)
        do {
            for (path, text) in files.sorted(by: { $0.key < $1.key }) { try folder.write(text, to: path) }
            try folder.commit()
        } catch {
            folder.abandon()
            throw error
        }
        let exportNote =
            export == nil ? ", \(ProjectScaffold.demoExportName) (the demo export: replace it with yours)" : ""
        printStatus(
            "\(directory)/: wrote \(ProjectConfig.fileName)\(exportNote), Content/about.md and "
                + "\(BuiltinTemplateFiles.files.count) files in Templates/; run `fanout build` there")
    }

    /// `--export` as fanout.toml names it: relative to the project's folder, since paths in the file are. Fails
    /// when there is nothing at `path`.
    private func projectPath(_ path: String) throws -> String {
        guard path != "-" else {
            throw UsageError(message: "--export -: a project builds from a file or folder, not standard input")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(message: "--export \(path): no such file or folder; nothing was written")
        }
        return ProjectScaffold.relativePath(to: path, from: directory)
    }
}
