import ArgumentParser
import FanoutImport
import Foundation

/// The `--config` option: where a site project's settings come from.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The project file (default: ./fanout.toml when it exists). Command-line options override it.", valueName: "FILE"))
    var path: String?

    /// The file in use: `--config`, else `./fanout.toml` when there is one.
    var file: String? {
        path ?? (FileManager.default.fileExists(atPath: ProjectConfig.fileName) ? ProjectConfig.fileName : nil)
    }

    /// The project's settings; none when there is no file.
    func load() throws -> ProjectConfig {
        guard let file else { return ProjectConfig() }
        do {
            return try ProjectConfig.load(path: file)
        } catch {
            throw UsageError(message: error.description)
        }
    }

    /// A path written in the project file, which is relative to the file's folder.
    func resolve(_ path: String) -> String {
        guard let file, !path.hasPrefix("/"), path != "-" else { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    /// The export and schema to read: the command line's (`export`, `schema`), else the project file's.
    func exportOptions(export: String?, schema: String?, project: ProjectConfig) throws -> ExportOptions {
        guard let export = export ?? project.export.map(resolve) else {
            throw UsageError(message: "missing the export: give EXPORT (a file, or - for standard input) "
                + "or set export in \(ProjectConfig.fileName)")
        }
        var arguments: [String] = []
        if let schema = schema ?? project.schema.map({ $0.hasSuffix(".toml") ? resolve($0) : $0 }) {
            arguments += ["--schema", schema]
        }
        return try ExportOptions.parse(arguments + ["--", export])
    }
}
