import ArgumentParser
import FanoutOutput
import FanoutRender

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
        var files: [String: String] = [
            ProjectConfig.fileName: ProjectScaffold.configFile(export: export),
            "Content/about.md": ProjectScaffold.samplePage,
        ]
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
        printStatus("\(directory)/: wrote \(ProjectConfig.fileName), Content/about.md and "
            + "\(BuiltinTemplateFiles.files.count) files in Templates/; run `fanout build` there")
    }
}
