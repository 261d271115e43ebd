import ArgumentParser
import FanoutCore
import FanoutImport
import Foundation

/// `fanout schemas`: lists the built-in layouts, and prints one as a schema file to copy and edit.
struct SchemasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemas",
        abstract: "List the built-in layouts (presets), or print one as a schema file to copy and edit.",
        discussion: """
            Without --schema, Fanout picks the preset from the export's top-level keys (a folder or .zip is a \
            Parse export). For any other app, write a schema file: start from `fanout schemas show NAME > \
            myapp.toml`, edit it as docs/layouts.md ("Schema files") describes, and pass --schema myapp.toml.
            """,
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    /// `fanout schemas list`: one line per preset.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the presets.")

        func run() throws {
            let width = Presets.names.map(\.count).max() ?? 0
            let lines = Presets.all.map { schema in
                schema.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (schema.summary ?? "")
            }
            printOutput(lines.joined(separator: "\n") + "\n")
        }
    }

    /// `fanout schemas show NAME`: the preset's schema file.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a preset's schema file (TOML), to copy and edit.")

        @Argument(help: "The preset's name.")
        var name: String

        func run() throws {
            guard let text = Presets.text(of: name) else {
                throw UsageError(message: Presets.unknownMessage(name))
            }
            printOutput(text)
        }
    }
}
