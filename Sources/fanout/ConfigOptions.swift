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
}
