import FanoutCore

/// The layouts Fanout knows without a schema file: the schema files of ``PresetFiles``, parsed once.
public enum Presets {
    /// Every preset, in the order `fanout schemas` lists them.
    public static let all: [Schema] = PresetFiles.files.map { file in
        do {
            return try SchemaFile.parse(file.text, source: "preset \(file.name)", defaultName: file.name)
        } catch {
            // The texts ship with the tool and a test parses each one, so this is a bug in the tool itself.
            fatalError("built-in preset \(file.name) is invalid: \(error)")
        }
    }

    /// Makestagram on Firebase (seeds 000 and 003): `users`, `posts/{poster}/{post}`, `postLikes`,
    /// `following`/`followers`, `timeline/{user}/{post}: {poster_uid}`.
    package static var makestagram: Schema { named("makestagram")! }

    /// The names of the presets.
    public static var names: [String] { PresetFiles.files.map(\.name) }

    /// The preset called `name`.
    public static func named(_ name: String) -> Schema? { all.first { $0.name == name } }

    /// What is wrong with `name` when no preset has it, with the nearest preset when `name` looks like a
    /// misspelling of it.
    package static func unknownMessage(_ name: String) -> String {
        "unknown schema \"\(name)\"\(Suggestion.didYouMean(name, among: names)); presets: \(names.joined(separator: ", ")); a schema file is given by its path "
            + "(ending in .toml)"
    }

    /// The schema file text of the preset called `name`, as `fanout schemas show` prints it.
    public static func text(of name: String) -> String? {
        PresetFiles.files.first { $0.name == name }.map { $0.text + "\n" }
    }
}
