import FanoutCore
import FanoutImport
import Foundation
import TOMLKit

/// A site project's settings, read from its `fanout.toml`.
///
/// Every key is optional; command-line options override the file. Example:
///
/// ```toml
/// export = "backups/latest.json"
/// schema = "makestagram"
/// title = "Makestagram feeds"
/// base_url = "https://feeds.example.com/"
/// per_page = 20
/// out = "_site"
/// cache_dir = ".fanout-cache"
/// fail_on = "warning"
///
/// [rules]
/// push-id-time = "off"
/// poster-copy-stale = "error"
/// ```
public struct ProjectConfig: Sendable, Equatable {
    /// The file name looked for in the current folder.
    public static let fileName = "fanout.toml"
    /// The keys a project file may hold at its top level.
    public static let keys = [
        "export", "schema", "title", "base_url", "per_page", "out", "cache_dir", "fail_on", "history", "rules",
    ]

    /// The export to read when the command line names none.
    public var export: String?
    /// The export's layout (a preset name or schema file).
    public var schema: String?
    /// The site's title.
    public var title: String?
    /// The URL the site is published at, for absolute links in feeds and the sitemap.
    public var baseURL: String?
    /// Posts per timeline page.
    public var perPage: Int?
    /// The folder the site is written to.
    public var out: String?
    /// The folder of caches a build keeps what the next one reads in (docs/site.md "Rebuilds, progress and timings").
    public var cacheDir: String?
    /// The severity that fails `check` and `build`.
    public var failOn: FailOn?
    /// Rules switched off or re-graded, by rule id.
    public var rules: [String: RuleSetting]
    /// The project's history of `check --history` runs: `history = "FILE"`, or a `[history]` table with `file`,
    /// `factor` and `window` (docs/diff-and-history.md, "History").
    public var history: HistoryConfig?
    /// The lines of `[rules]` that name no built-in rule: the schema's declarations may have them
    /// (``checkRules(schema:)``, once the schema is known).
    var undeclaredRules: [String: ConfigError] = [:]

    /// A configuration with the given settings; by default, none.
    public init(
        export: String? = nil, schema: String? = nil, title: String? = nil, baseURL: String? = nil,
        perPage: Int? = nil, out: String? = nil, failOn: FailOn? = nil, rules: [String: RuleSetting] = [:]
    ) {
        self.export = export
        self.schema = schema
        self.title = title
        self.baseURL = baseURL
        self.perPage = perPage
        self.out = out
        self.failOn = failOn
        self.rules = rules
    }

    /// Fails on the first rule `[rules]` names that neither Fanout nor `schema`'s declarations have, naming its line.
    public func checkRules(schema: Schema?) throws(ConfigError) {
        for (rule, error) in undeclaredRules.sorted(by: { ($0.value.line ?? 0, $0.key) < ($1.value.line ?? 0, $1.key) })
        where RuleCatalog.descriptor(rule, schema: schema) == nil {
            throw ConfigError(
                file: error.file, line: error.line,
                message: "[rules] \(rule): \(RuleCatalog.unknownMessage(rule, schema: schema))")
        }
    }

    /// Reads the file at `path`.
    public static func load(path: String) throws(ConfigError) -> ProjectConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable as UTF-8 text" : "no such file"
            throw ConfigError(file: path, line: nil, message: "cannot read: \(reason)")
        }
        return try parse(text, file: path)
    }

    /// Parses the TOML `text`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> ProjectConfig {
        if let at = TOMLHeaderCheck.firstBadHeader(in: text) {
            throw ConfigError(file: file, line: at.line, message: "invalid TOML: \(TOMLHeaderCheck.message)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, line: error.source.begin.line, message: "invalid TOML: \(error.description)")
        } catch {
            throw ConfigError(file: file, line: nil, message: "invalid TOML: \(error)")
        }
        var reader = ConfigReader(file: file, lines: TOMLSourceMap(text))
        return try reader.read(table)
    }
}

/// `history` in fanout.toml: the history file `build` shows the trend of and `fanout history` reads by default, and
/// how its anomalies are found (docs/diff-and-history.md, "Anomalies").
public struct HistoryConfig: Sendable, Equatable {
    /// The keys of a `[history]` table.
    public static let keys = ["file", "factor", "window"]

    /// The history file, relative to the project file's folder.
    public var file: String?
    public var factor: Double?
    public var window: Int?

    public init(file: String? = nil, factor: Double? = nil, window: Int? = nil) {
        self.file = file
        self.factor = factor
        self.window = window
    }

    /// The settings anomalies are found with: these, else the defaults.
    public var settings: HistoryTrend.Settings {
        HistoryTrend.Settings(
            factor: factor ?? HistoryTrend.Settings.defaultFactor, window: window ?? HistoryTrend.Settings.defaultWindow
        )
    }
}

/// Reads a parsed table into a ``ProjectConfig``, checking every key and value in the order they are written.
private struct ConfigReader {
    let file: String
    let lines: TOMLSourceMap

    func fail(_ key: String, in table: String? = nil, _ message: String) -> ConfigError {
        ConfigError(file: file, line: lines.line(of: (table.map { [$0] } ?? []) + [key]), message: message)
    }

    /// The table's members in the order of their lines, so the first error reported is the first in the file.
    ///
    /// Looked up key by key rather than with TOMLKit's iterator, which traps on a key it cannot look up: one holding
    /// U+0000 (`["\u0000"]`), which TOMLKit hands over cut at the NUL.
    func ordered(_ table: TOMLTable, name: String? = nil) throws(ConfigError) -> [(String, TOMLValueConvertible)] {
        let prefix = name.map { [$0] } ?? []
        var members: [(String, TOMLValueConvertible)] = []
        for key in table.keys {
            guard let value = table[key] else {
                let table = name.map { "[\($0)]: " } ?? "", after = key.isEmpty ? "" : " after \"\(key)\""
                throw ConfigError(
                    file: file, line: nil, message: table + "a key holding U+0000\(after): such keys are not supported")
            }
            members.append((key, value))
        }
        return members.sorted { a, b in
            (lines.line(of: prefix + [a.0]) ?? .max, a.0) < (lines.line(of: prefix + [b.0]) ?? .max, b.0)
        }
    }

    mutating func read(_ table: TOMLTable) throws(ConfigError) -> ProjectConfig {
        var config = ProjectConfig()
        for (key, value) in try ordered(table) {
            switch key {
            case "export": config.export = try string(key, value)
            case "schema": config.schema = try string(key, value)
            case "title": config.title = try string(key, value)
            case "base_url": config.baseURL = try string(key, value)
            case "out": config.out = try string(key, value)
            case "cache_dir": config.cacheDir = try string(key, value)
            case "per_page":
                guard let number = value.int, NumberRange.perPage.contains(number) else {
                    throw fail(key, "per_page = \(Self.shown(value)): expected \(NumberRange.perPage.expected)")
                }
                config.perPage = number
            case "fail_on":
                guard let text = value.string, let threshold = FailOn(rawValue: text) else {
                    throw fail(key, "fail_on = \(Self.shown(value)): expected \(FailOn.listed)")
                }
                config.failOn = threshold
            case "history":
                if let file = value.string {
                    config.history = HistoryConfig(file: file)
                } else if let table = value.table {
                    config.history = try readHistory(table)
                } else {
                    throw fail(
                        key,
                        "history = \(Self.shown(value)): expected the history file (history = \"history.ndjson\") or a [history] table"
                    )
                }
            case "rules":
                guard let rules = value.table else { throw fail(key, "rules: expected a table ([rules])") }
                config.rules = try readRules(rules, undeclared: &config.undeclaredRules)
            default:
                throw fail(key, "unknown key \"\(key)\"; known keys: \(ProjectConfig.keys.joined(separator: ", "))")
            }
        }
        return config
    }

    /// The settings of `[history]`: `file`, `factor` (above 1) and `window` (at least the runs a median needs).
    func readHistory(_ table: TOMLTable) throws(ConfigError) -> HistoryConfig {
        var history = HistoryConfig()
        for (key, value) in try ordered(table, name: "history") {
            switch key {
            case "file": history.file = try string(key, value)
            case "factor":
                guard let factor = value.double ?? value.int.map(Double.init), factor > 1, factor.isFinite else {
                    throw fail(
                        key, in: "history",
                        "[history] factor = \(Self.shown(value)): expected a finite number above 1 (2 flags a count "
                            + "more than twice the median)")
                }
                history.factor = factor
            case "window":
                guard let window = value.int, NumberRange.historyWindow.contains(window) else {
                    throw fail(
                        key, in: "history",
                        "[history] window = \(Self.shown(value)): expected \(NumberRange.historyWindow.expected) (runs)"
                    )
                }
                history.window = window
            default:
                throw fail(
                    key, in: "history",
                    "[history] unknown key \"\(key)\"; known keys: \(HistoryConfig.keys.joined(separator: ", "))")
            }
        }
        return history
    }

    /// The settings of `[rules]`; rules Fanout does not have go into `undeclared` with the error they make unless the
    /// schema declares them.
    func readRules(_ table: TOMLTable, undeclared: inout [String: ConfigError]) throws(ConfigError) -> [String:
        RuleSetting]
    {
        var settings: [String: RuleSetting] = [:]
        for (rule, value) in try ordered(table, name: "rules") {
            guard RuleCatalog.descriptor(rule) != nil else {
                if let setting = Self.topLevelKey(like: rule) {
                    // TOML puts every key after `[rules]` into that table, so a setting appended at the end of the
                    // file lands there.
                    throw fail(
                        rule, in: "rules",
                        "[rules] \(rule): not a rule; \(setting) is a setting of the file's "
                            + "top level: move it above [rules] (every key after a [table] line belongs to that table)")
                }
                undeclared[rule] = fail(rule, in: "rules", "[rules] \(rule): \(RuleCatalog.unknownMessage(rule))")
                guard let text = value.string, RuleSetting(text) != nil else {
                    throw fail(
                        rule, in: "rules",
                        "[rules] \(rule) = \(Self.shown(value)): expected off, info, warning or error")
                }
                settings[rule] = RuleSetting(text)
                continue
            }
            guard let text = value.string, let setting = RuleSetting(text) else {
                throw fail(
                    rule, in: "rules", "[rules] \(rule) = \(Self.shown(value)): expected off, info, warning or error")
            }
            settings[rule] = setting
        }
        return settings
    }

    /// The top-level key `key` means, spelled with any case, `-` or `_` (`perpage`, `Per-Page`), if it means one.
    static func topLevelKey(like key: String) -> String? {
        func folded(_ text: String) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }
        return ProjectConfig.keys.first { $0 != "rules" && folded($0) == folded(key) }
    }

    func string(_ key: String, _ value: TOMLValueConvertible) throws(ConfigError) -> String {
        guard let text = value.string else { throw fail(key, "\(key) = \(Self.shown(value)): expected a string") }
        return text
    }

    /// A value as the user wrote it, near enough: strings quoted, tables and arrays by kind.
    static func shown(_ value: TOMLValueConvertible) -> String {
        if let text = value.string { return "\"\(text)\"" }
        switch value.type {
        case .table: return "a table"
        case .array: return "an array"
        default: return value.debugDescription
        }
    }
}
