/// The SQL engines `fanout sql` writes queries for (docs/tables.md).
///
/// The rules' queries are written once, in the subset both engines share; the few constructs that are spelled
/// differently (arrays, structs, ordered lists, lambdas, the string type) come from here.
public enum SQLDialect: String, CaseIterable, Sendable {
    /// Spark SQL 4 (ANSI mode, the default).
    case spark
    /// DuckDB.
    case duckdb

    /// The string type in casts.
    var text: String { self == .spark ? "STRING" : "VARCHAR" }

    /// A table's name, quoted (`following` is a keyword in both engines).
    func table(_ name: String) -> String { self == .spark ? "`\(name)`" : "\"\(name)\"" }

    /// An array of `items`.
    func array(_ items: [String]) -> String {
        self == .spark ? "array(\(items.joined(separator: ", ")))" : "[\(items.joined(separator: ", "))]"
    }

    /// A struct of named values.
    func structure(_ members: [(String, String)]) -> String {
        switch self {
        case .spark: "named_struct(" + members.map { "'\($0.0)', \($0.1)" }.joined(separator: ", ") + ")"
        case .duckdb: "{" + members.map { "'\($0.0)': \($0.1)" }.joined(separator: ", ") + "}"
        }
    }

    /// The `fix` column's type: a list of (path, JSON text) entries.
    var fixType: String {
        self == .spark ? "array<struct<path:string,value:string>>" : "STRUCT(path VARCHAR, value VARCHAR)[]"
    }

    /// The list of `value` over a group, ordered by `order` (an aggregate).
    func orderedList(_ value: String, by order: String) -> String {
        switch self {
        case .spark: "transform(array_sort(collect_list(named_struct('k', \(order), 'v', \(value)))), s -> s.v)"
        case .duckdb: "list(\(value) ORDER BY \(order))"
        }
    }

    /// The element of `list` at 1-based `index`.
    func element(_ list: String, _ index: Int) -> String {
        self == .spark ? "element_at(\(list), \(index))" : "(\(list))[\(index)]"
    }

    /// The first element of `list`, or the empty string when it has none (a baseline entry's path). In Spark a
    /// size test rather than `try_element_at`, whose generated code failed to compile over some rules' rows (Spark
    /// then fell back to interpreting them, logging a stack trace each time).
    func firstOrEmpty(_ list: String) -> String {
        self == .spark
            ? "CASE WHEN size(\(list)) > 0 THEN element_at(\(list), 1) ELSE '' END" : "coalesce((\(list))[1], '')"
    }

    /// `list` without its first element.
    func rest(_ list: String) -> String {
        self == .spark ? "slice(\(list), 2, greatest(size(\(list)) - 1, 0))" : "list_slice(\(list), 2, len(\(list)))"
    }

    /// Two lists, one after the other.
    func concatenate(_ a: String, _ b: String) -> String {
        self == .spark ? "concat(\(a), \(b))" : "list_concat(\(a), \(b))"
    }

    /// `list` with each element `x` replaced by `body` (which names it `x`).
    func transform(_ list: String, _ body: String) -> String {
        self == .spark ? "transform(\(list), x -> \(body))" : "list_transform(\(list), lambda x: \(body))"
    }

    /// The elements of a list of strings joined with `separator`.
    func join(_ list: String, _ separator: String) -> String {
        self == .spark ? "array_join(\(list), \(separator))" : "array_to_string(\(list), \(separator))"
    }

    /// `value` with every match of the regular expression `pattern` replaced by `replacement` (DuckDB replaces the
    /// first match alone unless told `'g'`).
    func replacingAll(_ value: String, pattern: String, with replacement: String) -> String {
        self == .spark
            ? "regexp_replace(\(value), \(pattern), \(replacement))"
            : "regexp_replace(\(value), \(pattern), \(replacement), 'g')"
    }

    /// One row per element of `list` (in a select list).
    func explode(_ list: String) -> String { self == .spark ? "explode(\(list))" : "unnest(\(list))" }

    /// A double rendered by the engine in exponent notation split into sign, first digit, other digits and
    /// exponent by `regexp_extract` group `group` (Spark writes `1.7E114`, DuckDB `1.7e+114`).
    func exponentPart(_ value: String, _ group: Int) -> String {
        "regexp_extract(CAST(\(value) AS \(text)), '^(-?)([0-9])[.]?([0-9]*)[eE][+]?(-?[0-9]+)$', \(group))"
    }
}
