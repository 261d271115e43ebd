import ArgumentParser
import FanoutCore
import FanoutImport
import Foundation

/// The options every command that reads an export shares: the export, its layout and the site project file.
/// Each is optional on the command line, since a project's `fanout.toml` may name the export and the schema.
struct ExportOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The export: a Firebase JSON file (plain or gzip), - for standard input, or a Parse export folder or .zip. "
                + "Default: `export` in fanout.toml."))
    var export: String?

    @OptionGroup var layoutOptions: LayoutOptions

    var schema: String? { layoutOptions.schema }
    var projectFile: String? { layoutOptions.projectFile }
    func project() throws -> ProjectConfig { try layoutOptions.project() }
    func resolve(_ path: String) -> String { layoutOptions.resolve(path) }
    func existingFolder(_ name: String) -> String? { layoutOptions.existingFolder(name) }
    func layout(_ project: ProjectConfig) throws -> Schema? { try layoutOptions.layout(project) }

    /// The export to read and its layout: the command line's, else the project file's.
    func input(_ project: ProjectConfig) throws -> ExportInput {
        guard let path = export ?? project.export.map(resolve) else {
            throw UsageError(
                message: "missing the export: give EXPORT (a file, or - for standard input) "
                    + "or set export in \(ProjectConfig.fileName)")
        }
        return ExportInput(path: path, schema: try layout(project))
    }
}

/// The layout of the exports a command reads and the site project file: `--schema` and `--config`, which
/// ``ExportOptions`` holds beside the export, and which `fanout diff` takes for its two exports.
struct LayoutOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The export's layout: a preset (\(Presets.names.joined(separator: ", "))) or a schema file. Default: "
                + "`schema` in fanout.toml, else detected from the export's top-level keys (see `fanout schemas`).",
            valueName: "NAME|FILE"))
    var schema: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The project file (default: ./fanout.toml when it exists). Command-line options override it.",
            valueName: "FILE"))
    var configFile: String?

    /// The project file in use: `--config`, else `./fanout.toml` when there is one.
    var projectFile: String? {
        configFile ?? (FileManager.default.fileExists(atPath: ProjectConfig.fileName) ? ProjectConfig.fileName : nil)
    }

    /// The project's settings; none when there is no project file.
    func project() throws -> ProjectConfig {
        guard let file = projectFile else { return ProjectConfig() }
        do {
            return try ProjectConfig.load(path: file)
        } catch {
            throw UsageError(message: error.description)
        }
    }

    /// A path written in the project file, which is relative to the file's folder.
    func resolve(_ path: String) -> String {
        guard let file = projectFile, !path.hasPrefix("/"), path != "-" else { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    /// `name` next to the project file in use (or in the current folder), when that folder exists.
    func existingFolder(_ name: String) -> String? {
        var isDirectory: ObjCBool = false
        let path = resolve(name)
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? path : nil
    }

    /// The layout `--schema` or the project file names; nil when the export's is to be detected.
    func layout(_ project: ProjectConfig) throws -> Schema? {
        let name = schema ?? project.schema.map { SchemaChoice.isFile($0) ? resolve($0) : $0 }
        return try name.map(SchemaChoice.resolve)
    }
}

/// An export to read: where it is, and its layout (nil: detected from the export).
struct ExportInput {
    var path: String
    var schema: Schema?
}

/// What `--schema` names: a preset or a schema file.
enum SchemaChoice {
    /// Whether `value` is a schema file's path (it ends in `.toml` or contains `/`) rather than a preset's name.
    static func isFile(_ value: String) -> Bool { value.hasSuffix(".toml") || value.contains("/") }

    /// The preset or schema file `value` names.
    static func resolve(_ value: String) throws -> Schema {
        if isFile(value) { return try SchemaFile.load(path: value) }
        guard let preset = Presets.named(value) else { throw UsageError(message: Presets.unknownMessage(value)) }
        return preset
    }
}
