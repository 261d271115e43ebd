import ArgumentParser
import FanoutCore
import FanoutImport

/// Options naming the export and its layout.
struct ExportOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The export: a Firebase JSON file (plain or gzip), - for standard input, or a Parse export folder or .zip."))
    var export: String

    @Option(help: ArgumentHelp(
        "The export's layout: a preset (makestagram, instaclone, friendlypix, parse) or a schema file. "
            + "Default: detected from the export's top-level keys (see `fanout schemas`).",
        valueName: "NAME|FILE"))
    var schema: String?

    /// The schema chosen: a preset, a schema file (a value ending in `.toml` or containing `/`), or nil to
    /// detect the layout from the export.
    func resolvedSchema() throws -> Schema? {
        guard let schema else { return nil }
        if schema.hasSuffix(".toml") || schema.contains("/") { return try SchemaFile.load(path: schema) }
        guard let preset = Presets.named(schema) else {
            throw UsageError(message: "unknown schema \"\(schema)\"; presets: \(Presets.names.joined(separator: ", ")); "
                + "a schema file is given by its path (ending in .toml)")
        }
        return preset
    }
}
