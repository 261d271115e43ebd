import FanoutCore
import TOMLKit

/// One table of a schema file, or a relation written as a bare path (`users = "users/{user}"`), read through
/// accessors that check each value's type and report the key and line of anything wrong.
struct Entries {
    let table: TOMLTable?
    /// The path of a relation written in the short form.
    var shorthandPath: String?
    /// Where this table is, e.g. `["posts"]`.
    let path: [String]
    let parser: SchemaFileParser

    init(table: TOMLTable?, shorthandPath: String? = nil, path: [String], parser: SchemaFileParser) {
        self.table = table
        self.shorthandPath = shorthandPath
        self.path = path
        self.parser = parser
    }

    private func fail(_ key: String, _ message: String) -> InputError { parser.fail(path + [key], message) }

    /// Rejects keys not in `keys`, so that a misspelled key is an error rather than silently ignored.
    func allowOnly(_ keys: [String]) throws(InputError) {
        guard let table else { return }
        for key in table.keys.sorted() where !keys.contains(key) {
            let place =
                path.isEmpty
                ? "a schema file"
                : path.last?.hasPrefix("[") == true
                    ? "[[\(TOMLSourceMap.text(of: Array(path.dropLast())))]]" : "[\(TOMLSourceMap.text(of: path))]"
            throw fail(key, "unknown key; \(place) takes \(keys.joined(separator: ", "))")
        }
    }

    private func value(_ key: String) -> TOMLValueConvertible? { table?[key] }

    /// A string value, or nil when absent.
    func string(_ key: String) throws(InputError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.string else { throw fail(key, "expected a string, found \(Self.describe(value.type))") }
        return text
    }

    /// What the app stores at an edge's key, `true` or `1`, or nil when absent.
    func edgeValue(_ key: String) throws(InputError) -> EdgeValue? {
        guard let value = value(key) else { return nil }
        if value.bool == true { return .true }
        if value.int == 1 { return .one }
        throw fail(key, "expected true or 1 (what the app stores at an edge's key), found \(value.debugDescription)")
    }

    /// A boolean, or nil when absent.
    func bool(_ key: String) throws(InputError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.bool else {
            throw fail(key, "expected true or false, found \(Self.describe(value.type))")
        }
        return flag
    }

    /// The elements of an array of tables (`[[counters]]`), each with the keys in `keys`; empty when absent.
    func tables(_ key: String, keys: [String]) throws(InputError) -> [Entries] {
        guard let value = value(key) else { return [] }
        guard let array = value.array else {
            throw fail(key, "expected an array of tables ([[\(key)]] sections), found \(Self.describe(value.type))")
        }
        var elements: [Entries] = []
        for (index, element) in array.enumerated() {
            let at = path + [key, TOMLSourceMap.element(index)]
            guard let table = element.table else {
                throw parser.fail(
                    at, "expected a table ([[\(key)]] with name = \"…\"), found \(Self.describe(element.type))")
            }
            let entries = Entries(table: table, path: at, parser: parser)
            try entries.allowOnly(keys)
            elements.append(entries)
        }
        return elements
    }

    /// A table of named field paths (`fields = { email = "contact/email" }`), empty when absent.
    func namedFields(_ key: String) throws(InputError) -> [String: FieldPath] {
        guard let table = try table(key) else { return [:] }
        var fields: [String: FieldPath] = [:]
        for name in table.table?.keys.sorted() ?? [] {
            guard let path = try table.field(name) else { continue }
            fields[name] = path
        }
        return fields
    }

    /// A string that must be there.
    func requiredString(_ key: String, _ what: String) throws(InputError) -> String {
        guard let text = try string(key) else { throw parser.fail(path, "missing \(key): \(what)") }
        return text
    }

    /// A path pattern under `key` that must be there.
    func requiredPattern(_ key: String, _ what: String) throws(InputError) -> PathPattern {
        let text = try requiredString(key, what)
        guard let pattern = PathPattern(text) else {
            throw fail(
                key,
                "\"\(text)\" is not a path pattern: keys separated by /, captures written {name}, e.g. \"users/{user}/postCount\""
            )
        }
        var seen: Set<String> = []
        for name in pattern.captureNames where !seen.insert(name).inserted {
            throw fail(key, "\"\(text)\" captures {\(name)} twice")
        }
        return pattern
    }

    /// A severity (`info`, `warning`, `error`), or nil when absent.
    func severity(_ key: String) throws(InputError) -> Severity? {
        guard let text = try string(key) else { return nil }
        guard let severity = Severity(rawValue: text) else {
            throw fail(key, "\"\(text)\" is not a severity; use info, warning or error")
        }
        return severity
    }

    /// A sub-table, or nil when absent.
    func table(_ key: String) throws(InputError) -> Entries? {
        guard let value = value(key) else { return nil }
        guard let sub = value.table else {
            throw fail(
                key, "expected a table ([\((path + [key]).joined(separator: "."))]), found \(Self.describe(value.type))"
            )
        }
        return Entries(table: sub, path: path + [key], parser: parser)
    }

    /// A relation: a path pattern string, or a table with `path` and the keys in `keys`.
    func relation(_ key: String, keys: [String]) throws(InputError) -> Entries? {
        guard let value = value(key) else { return nil }
        if let text = value.string {
            return Entries(table: nil, shorthandPath: text, path: path + [key], parser: parser)
        }
        guard let sub = value.table else {
            throw fail(
                key,
                "expected a path pattern such as \"\(key)/{…}\" or a table with path = \"…\", found \(Self.describe(value.type))"
            )
        }
        let entries = Entries(table: sub, path: path + [key], parser: parser)
        try entries.allowOnly(keys)
        return entries
    }

    /// The relation's path pattern (`path`, or the short form's string).
    func pattern() throws(InputError) -> PathPattern {
        let text: String
        let at: [String]
        if let shorthandPath {
            (text, at) = (shorthandPath, path)
        } else {
            guard let written = try string("path") else {
                throw parser.fail(
                    path, "missing path: where this relation lives, e.g. path = \"\(path.last ?? "items")/{…}\"")
            }
            (text, at) = (written, path + ["path"])
        }
        guard let pattern = PathPattern(text) else {
            throw parser.fail(
                at,
                "\"\(text)\" is not a path pattern: keys separated by /, captures written {name}, e.g. \"posts/{poster}/{post}\""
            )
        }
        return pattern
    }

    /// A field path relative to the relation's node, or nil when absent.
    func field(_ key: String) throws(InputError) -> FieldPath? {
        guard let text = try string(key) else { return nil }
        return try fieldPath(text, key)
    }

    private func fieldPath(_ text: String, _ key: String) throws(InputError) -> FieldPath {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0.isEmpty || $0.contains("{") || $0.contains("}") }) else {
            throw fail(
                key,
                "\"\(text)\" is not a field path: keys separated by / from the relation's node, e.g. \"poster/uid\"")
        }
        return FieldPath(text)
    }

    /// An array of field paths (`required`), empty when absent.
    func fields(_ key: String) throws(InputError) -> [FieldPath] {
        guard let value = value(key) else { return [] }
        guard let array = value.array else {
            throw fail(key, "expected an array of field paths, found \(Self.describe(value.type))")
        }
        var paths: [FieldPath] = []
        for element in array {
            guard let text = element.string else {
                throw fail(key, "expected an array of field paths, found \(Self.describe(element.type)) in it")
            }
            paths.append(try fieldPath(text, key))
        }
        return paths
    }

    /// A timestamp: `{ field = "…", unit = "s" | "ms" | "us" | "iso8601" }`, or a date string in a `strftime`
    /// format, `{ field = "…", format = "%Y/%m/%d %H:%M:%S" }`; `zone` is the zone of date strings that name none.
    func time(_ key: String) throws(InputError) -> TimeField? {
        guard let value = value(key) else { return nil }
        let units = "s, ms, us or iso8601, or a format such as format = \"%Y-%m-%d %H:%M\""
        guard let sub = value.table else {
            throw fail(key, "expected { field = \"…\", unit = \"s\" }: a timestamp needs its unit (\(units))")
        }
        let entries = Entries(table: sub, path: path + [key], parser: parser)
        try entries.allowOnly(["field", "unit", "format", "zone"])
        guard let field = try entries.field("field") else {
            throw fail(key, "missing field: the timestamp's field path")
        }
        let format = try entries.string("format"), zone = try entries.string("zone")
        let unit: TimeField.Unit
        switch (try entries.string("unit"), format) {
        case (nil, nil):
            throw parser.fail(path + [key, "unit"], "missing unit: \(units)")
        case (let text?, nil):
            guard let known = TimeField.Unit(rawValue: text), known != .formatted else {
                throw parser.fail(path + [key, "unit"], "\"\(text)\" is not a unit; use \(units)")
            }
            unit = known
        case (nil, _?): unit = .formatted
        case (_?, _?):
            throw parser.fail(path + [key, "format"], "a timestamp has a unit or a format, not both")
        }
        if zone != nil, unit != .formatted, unit != .iso8601 {
            throw parser.fail(path + [key, "zone"], "zone is for date strings (a format or iso8601), not numbers")
        }
        do throws(DateFormat.Invalid) {
            _ = try DateFormat.zone(zone)
        } catch {
            throw parser.fail(path + [key, "zone"], error.message)
        }
        if let format {
            do throws(DateFormat.Invalid) {
                _ = try DateFormat(format)
            } catch {
                throw parser.fail(path + [key, "format"], error.message)
            }
        }
        return TimeField(field, unit: unit, format: format, zone: zone)
    }

    /// An edge relation written under `key`: a path pattern, or a table with `path`, `key` and row fields
    /// for the ends in `ends`.
    func edge(_ key: String, ends: [String]) throws(InputError) -> EdgeRelation? {
        try relation(key, keys: ["path", "key"] + ends)?.edgeRelation(ends: ends)
    }

    /// This table as an edge relation whose ends in `ends` may be read from fields.
    func edgeRelation(ends: [String]) throws(InputError) -> EdgeRelation {
        EdgeRelation(
            pattern: try pattern(), user: ends.contains("user") ? try field("user") : nil,
            post: ends.contains("post") ? try field("post") : nil,
            target: ends.contains("target") ? try field("target") : nil, key: try field("key"))
    }

    static func describe(_ type: TOMLType) -> String {
        switch type {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        case .date, .time, .dateTime: "a date"
        }
    }
}
