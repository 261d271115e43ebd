import ArgumentParser
import FanoutCore
import FanoutImport

/// Options naming the export and its layout.
struct ExportOptions: ParsableArguments {
    @Argument(help: "The export: a Firebase JSON file, or - for standard input.")
    var export: String

    @Option(help: "The layout of the export (a preset name). Default: makestagram.")
    var schema: String = "makestagram"

    /// The schema chosen.
    func resolvedSchema() throws -> Schema {
        guard let preset = Presets.named(schema) else {
            throw UsageError(message: "unknown schema \"\(schema)\"; presets: \(Presets.all.map(\.name).joined(separator: ", "))")
        }
        return preset
    }
}
