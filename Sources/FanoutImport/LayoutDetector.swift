import FanoutCore
import FanoutJSON

/// Chooses the preset of a Firebase export from its top-level keys, when no `--schema` is given.
///
/// Each preset has keys no other preset uses (makestagram's `postLikes`, instaclone's `user-feed`,
/// friendlypix's `people`). Detection reads top-level keys until it meets one of those and decides there,
/// skipping the values before it without building anything. Console exports list keys in sorted order, so
/// the deciding key usually comes first or after a few small ones, and detection costs next to nothing even
/// for a 1 GB export. Keys that only presets share (`users`, `posts`) decide nothing; when the whole top level
/// has only those, the first posts' fields decide (``fitByPostFields(_:candidates:)``), else the layout is
/// ambiguous. Because the decision is taken early, the walk that follows watches for the other presets' own keys
/// and reports a mixed export as ambiguous too.
enum LayoutDetector {
    /// The chosen preset and the other presets' own keys, which the export must not have.
    struct Choice {
        let schema: Schema
        let foreignKeys: [String: String]
    }

    /// The Firebase presets, with the keys that are theirs alone.
    static let presets: [(schema: Schema, own: [String])] = {
        let firebase = Presets.all.filter { $0.format == .firebase }
        return firebase.map { schema in
            let others = Set(firebase.filter { $0.name != schema.name }.flatMap(\.rootKeys))
            return (schema, schema.rootKeys.filter { !others.contains($0) })
        }
    }()

    /// Chooses the preset for `bytes`, or throws a layout error naming the top-level keys and the presets.
    static func detect(_ bytes: ExportBytes) throws(InputError) -> Choice {
        var reader = JSONReader(bytes.buffer)
        let scan: Scan
        do {
            scan = try self.scan(&reader)
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        switch scan {
        case .notAnObject:
            throw InputError.layout(
                source: bytes.source,
                message:
                    "not a Firebase export: its top level is not an object with keys like \"users\" and \"posts\" (a Parse export is a folder or a .zip of class files)"
            )
        case .decided(let index):
            var foreign: [String: String] = [:]
            for (i, preset) in presets.enumerated() where i != index {
                for key in preset.own { foreign[key] = preset.schema.name }
            }
            return Choice(schema: presets[index].schema, foreignKeys: foreign)
        case .undecided(let keys, let total, let shared, let candidates):
            if candidates.count == 1 { return Choice(schema: presets[candidates[0]].schema, foreignKeys: [:]) }
            if candidates.count > 1 {
                let fit: Int?
                do throws(JSONSyntaxError) {
                    fit = try fitByPostFields(bytes, candidates: candidates)
                } catch {
                    throw InputError.syntax(source: bytes.source, error)
                }
                if let fit { return Choice(schema: presets[fit].schema, foreignKeys: [:]) }
            }
            // Only keys the export has are quoted: the presets are named, and `fanout schemas` shows their keys.
            let found = foundKeys(keys, total: total)
            let names = (candidates.isEmpty ? presets.indices.map { $0 } : candidates).map { presets[$0].schema.name }
            if candidates.isEmpty {
                throw InputError.layout(
                    source: bytes.source,
                    message: "cannot tell the layout: \(found), and none of them is a key of a preset "
                        + "(\(names.joined(separator: ", "))). \(advice)")
            }
            throw InputError.layout(
                source: bytes.source,
                message:
                    "ambiguous layout: \(found); of these, \(quoted(shared)) \(shared.count == 1 ? "fits" : "fit") "
                    + "\(names.joined(separator: ", ")) alike. \(advice)")
        }
    }

    /// The error for an export that, read with a detected preset, turned out to have another preset's keys.
    static func mixed(_ source: String, chosen: Schema, seen: [String], foreignKeys: [String: String]) -> InputError {
        let others = seen.map { "\(JSONWriter.quoted($0)) (\(foreignKeys[$0] ?? "?"))" }.joined(separator: ", ")
        let own = presets.first { $0.schema.name == chosen.name }?.own ?? []
        return InputError.layout(
            source: source,
            message:
                "ambiguous layout: it has top-level keys of \(chosen.name) (\(quoted(own))) and of other presets: \(others). \(advice)"
        )
    }

    static var advice: String {
        "Choose with --schema NAME (presets: \(Presets.names.joined(separator: ", "))) or --schema FILE.toml (see `fanout schemas`), or propose a schema file from the data with `fanout infer EXPORT --out schema.toml`"
    }

    private enum Scan {
        case notAnObject
        case decided(Int)
        /// No key decided: the first keys (up to 20) and how many there are, the keys some preset has, and the
        /// presets those fit.
        case undecided(keys: [String], total: Int, shared: [String], candidates: [Int])
    }

    private static func scan(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Scan {
        // Input that is not an object is read to the end first: malformed JSON is reported as such, with its
        // position, rather than as valid JSON of the wrong shape.
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            try reader.finish()
            return .notAnObject
        }
        try reader.beginObject()
        var keys: [String] = []
        var total = 0
        var shared: [String] = []
        var candidates: [Int] = []
        while let key = try reader.nextKeyString() {
            if let index = presets.firstIndex(where: { $0.own.contains(key) }) { return .decided(index) }
            if keys.count < 20 { keys.append(key) }
            total += 1
            for (i, preset) in presets.enumerated() where preset.schema.rootKeys.contains(key) {
                if !shared.contains(key) { shared.append(key) }
                if !candidates.contains(i) { candidates.append(i) }
            }
            try reader.skipValue()
        }
        try reader.finish()
        return .undecided(keys: keys, total: total, shared: shared, candidates: candidates.sorted())
    }

    /// Keys as JSON string literals: a key read from the file may hold quotes or control characters (an escape
    /// sequence would act on the user's terminal), and a literal shows exactly which key it is.
    static func quoted(_ keys: some Sequence<String>) -> String { keys.map(JSONWriter.quoted).joined(separator: ", ") }

    /// The first `limit` of `keys` quoted, and how many there are in all when that is more: only keys the
    /// export has, never ones a preset expects.
    static func keyList(_ keys: [String], total: Int, limit: Int = 10) -> String {
        let shown = quoted(keys.prefix(limit))
        return total > min(limit, keys.count) ? "\(shown), … (\(total) in all)" : shown
    }

    /// `its top-level keys are "a", "b"`, or that it has none; `subject` names the export (`its`, `the export's`).
    static func foundKeys(_ keys: [String], total: Int, subject: String = "its") -> String {
        total == 0 ? "\(subject) top level has no keys" : "\(subject) top-level keys are \(keyList(keys, total: total))"
    }

    static func article(_ word: String) -> String { "aeiou".contains(word.first ?? "x") ? "an" : "a" }
}
