import ArgumentParser
import FanoutCore
import FanoutExport
import FanoutJSON
import FanoutReports
import Foundation

/// `fanout sql`: the rule catalogue and the derived data as SQL over the tables of `fanout tables`, for Spark or
/// DuckDB (docs/tables.md).
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Print the rules (and with --derived the derived data) as SQL over the tables of `fanout tables`.",
        discussion: """
            Give the tables folder: its _manifest.json says which relations the export has, so that the rules \
            it lacks are skipped with the reasons `check` gives. Without one, --schema (or `schema` in \
            fanout.toml) names the layout. Each rule's query returns finding rows with the JSON report's fields \
            (rule, severity, paths, expected, actual, fix, message); expected, actual and each fix entry's value \
            are JSON text. --format json prints the queries as one JSON document, for a program to run them \
            (spark/fanout_check.py does).
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions

    @Argument(
        help: ArgumentHelp(
            "With --diff: the newer export's tables folder (TABLES is the older one's).", valueName: "NEW_TABLES"))
    var newTables: String?

    @ArgumentParser.Flag(
        help: ArgumentHelp(
            "Print `fanout diff` as SQL over two tables folders: TABLES (the older export's) and NEW_TABLES, read as old_<table> "
                + "and new_<table> (docs/diff-and-history.md)."))
    var diff = false

    @Option(
        help: ArgumentHelp(
            "The engine: \(SQLDialect.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "DIALECT"))
    var dialect: SQLDialect = .spark

    @ArgumentParser.Flag(help: "Also print the derived data's queries: timelines, post_stats (like counts) and likers.")
    var derived = false

    @ArgumentParser.Flag(
        help: ArgumentHelp(
            "Print the relations every rule derives (live_users, live_posts, like_counts; on Spark also the suspects: like_suspects, each mirror rule's such as follow_mirror_missing_suspects, timeline_suspects, timeline_gaps) once, as views the rules' queries read, "
                + "for a runner that makes each once per run (JSON: `views`; the jobs of spark/ do)."))
    var sharedViews = false

    @Option(help: ArgumentHelp("sql (queries separated by blank lines and comments) or json.", valueName: "FORMAT"))
    var format: SQLOutputFormat = .sql

    func run() throws {
        let project = try input.project()
        if diff { return try runDiff(project) }
        if let newTables { throw UsageError(message: "\(newTables): a second tables folder goes with --diff") }
        let (schema, exportName) = try source(project)
        let configuration = try rules.configuration(project, schema: schema)
        let (queries, skipped) = RuleQueries.queries(
            schema: schema, configuration: configuration, dialect: dialect, shared: sharedViews)
        let derivedQueries = derived ? RuleQueries.derived(schema: schema, dialect: dialect) : []
        let views =
            sharedViews ? RuleQueries.sharedViews(schema: schema, dialect: dialect, rules: queries.map(\.rule)) : []
        switch format {
        case .sql:
            var out =
                "-- fanout sql --dialect \(dialect.rawValue): \(queries.count) rules over the tables of `fanout tables` "
                + "(\(schema.name) layout)\n"
            for view in views {
                out +=
                    "\n-- view \(view.name): \(view.summary)\nCREATE OR REPLACE TEMPORARY VIEW \(view.name) AS\n\(view.sql);\n"
            }
            for query in queries {
                let summary = RuleCatalog.descriptor(query.rule, schema: schema)?.summary ?? ""
                out += "\n-- \(query.rule) (\(query.severity.rawValue)): \(summary)\n\(query.sql);\n"
            }
            for rule in skipped { out += "\n-- skipped \(rule.rule): \(rule.reason)\n" }
            for query in derivedQueries { out += "\n-- derived \(query.name): \(query.summary)\n\(query.sql);\n" }
            print(out, terminator: "")
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                ("dialect", .string(dialect.rawValue)),
                ("export", exportName.map(JSONValue.string) ?? .null),
                (
                    "queries",
                    .array(
                        queries.map {
                            .object([
                                ("rule", .string($0.rule)), ("severity", .string($0.severity.rawValue)),
                                ("sql", .string($0.sql)),
                            ])
                        })
                ),
                ("schema", .string(schema.name)),
                ("skipped", Self.json(skipped)),
                ("tool", .string("fanout")),
                ("version", .number(JSONNumber(1))),
            ]
            let declaredRules = RuleCatalog.declaredDescriptors(for: schema)
            if !declaredRules.isEmpty {
                // What the job's report lists as `summary.declared_rules` (docs/layouts.md "Declaring your app's
                // copies").
                members.insert(("declared_rules", JSONReport.declaredRules(declaredRules)), at: 0)
            }
            if sharedViews {
                members.append(("views", Self.json(views.map { ($0.name, $0.sql) })))
            }
            if derived {
                members.insert(("derived", Self.json(derivedQueries.map { ($0.name, $0.sql) })), at: 0)
            }
            print(JSONWriter(pretty: true).write(.object(members)))
        }
    }

    /// Named SQL texts (views, derived relations, a diff's queries) as the JSON of both forms: `[{"name", "sql"}…]`.
    private static func json(_ named: [(name: String, sql: String)]) -> JSONValue {
        .array(named.map { .object([("name", .string($0.name)), ("sql", .string($0.sql))]) })
    }

    /// The rules not run and why, as the JSON of both forms: `[{"reason", "rule"}…]`.
    private static func json(_ skipped: [SkippedRule]) -> JSONValue {
        .array(skipped.map { .object([("reason", .string($0.reason)), ("rule", .string($0.rule))]) })
    }

    /// `--diff OLD NEW`: the comparison's views and queries over the two folders' tables.
    private func runDiff(_ project: ProjectConfig) throws {
        guard let oldTables = input.export, let newTables else {
            throw UsageError(
                message:
                    "--diff compares two tables folders: give OLD_TABLES and NEW_TABLES, as `fanout tables` wrote them")
        }
        var manifests: [TableManifest] = []
        for folder in [oldTables, newTables] {
            do { manifests.append(try TableManifest.read(folder: folder)) } catch {
                throw UsageError(message: error.description)
            }
        }
        guard manifests[0].schema == manifests[1].schema else {
            throw UsageError(
                message: "\(oldTables) holds tables of the \(manifests[0].schema.name) layout and \(newTables) of the "
                    + "\(manifests[1].schema.name) layout; a diff compares two exports of one layout")
        }
        let schema = manifests[0].schema
        let queries = DiffQueries(
            schema: schema, configuration: try rules.configuration(project, schema: schema), dialect: dialect)
        switch format {
        case .sql:
            var out =
                "-- fanout sql --diff --dialect \(dialect.rawValue): \(oldTables) (as \(DiffQueries.oldPrefix)<table>) against "
                + "\(newTables) (as \(DiffQueries.newPrefix)<table>), \(schema.name) layout\n"
            for view in queries.views {
                out += "\n-- view \(view.name)\nCREATE OR REPLACE TEMPORARY VIEW \(view.name) AS\n\(view.sql);\n"
            }
            for query in queries.queries { out += "\n-- \(query.name)\n\(query.sql);\n" }
            for rule in queries.skipped { out += "\n-- skipped \(rule.rule): \(rule.reason)\n" }
            print(out, terminator: "")
        case .json:
            func named(_ list: [DiffQueries.Query]) -> JSONValue { Self.json(list.map { ($0.name, $0.sql) }) }
            func side(_ manifest: TableManifest, _ prefix: String) -> JSONValue {
                .object([("export", manifest.exportName.map(JSONValue.string) ?? .null), ("prefix", .string(prefix))])
            }
            let rules: [JSONValue] = queries.rules.map {
                .object([("rule", .string($0.rule)), ("severity", .string($0.severity.rawValue))])
            }
            let members: [(key: String, value: JSONValue)] = [
                ("kind", .string("diff")), ("dialect", .string(dialect.rawValue)), ("schema", .string(schema.name)),
                ("old", side(manifests[0], DiffQueries.oldPrefix)), ("new", side(manifests[1], DiffQueries.newPrefix)),
                ("relations", .array(queries.relations.map { .string($0.name) })),
                ("rules", .array(rules)), ("skipped", Self.json(queries.skipped)),
                ("views", named(queries.views)), ("queries", named(queries.queries)),
                ("tool", .string("fanout")), ("version", .number(JSONNumber(1))),
            ]
            print(JSONWriter(pretty: true).write(.object(members)))
        }
    }

    /// The schema the queries are for and the export's name: a tables folder's manifest, else `--schema` (or the
    /// project's), with the argument as the export's name.
    private func source(_ project: ProjectConfig) throws -> (Schema, String?) {
        if let folder = input.export {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
                FileManager.default.fileExists(
                    atPath: (folder as NSString).appendingPathComponent(TableExport.manifestName))
            {
                do {
                    let manifest = try TableManifest.read(folder: folder)
                    return (manifest.schema, manifest.exportName)
                } catch {
                    throw UsageError(message: error.description)
                }
            }
        }
        if let name = input.schema ?? project.schema.map({ SchemaChoice.isFile($0) ? input.resolve($0) : $0 }) {
            return (try SchemaChoice.resolve(name), input.export)
        }
        guard let folder = input.export else {
            throw UsageError(
                message: "missing the tables: give the folder `fanout tables` wrote, or --schema NAME|FILE")
        }
        throw UsageError(
            message: "\(folder): not a tables folder (no \(TableExport.manifestName)); give the folder "
                + "`fanout tables` wrote, or --schema NAME|FILE")
    }
}

/// What `fanout sql` prints.
enum SQLOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case sql, json
}

extension SQLDialect: ExpressibleByArgument {}
