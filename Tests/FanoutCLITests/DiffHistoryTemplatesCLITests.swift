import Foundation
import Testing

/// The HTML of `fanout diff` and `fanout history` comes from templates that a folder overrides file by file
/// (docs/diff-and-history.md "Templates"): `--templates DIR`, else a site project's `Templates/`.
@Suite struct DiffHistoryTemplatesCLITests {
    /// The demo export and a copy with a user renamed; a history of runs on both, on fixed times.
    static func inputs(_ cli: CLI) throws {
        let demo = try String(
            contentsOf: CLI.repository.appendingPathComponent("Content/demo-export.json"), encoding: .utf8)
        try cli.write(demo, to: "old.json")
        var tree = try JSONTree(demo)
        tree["users/\(tree.keys("users")[0])/username"] = "renamed"
        try cli.write(tree.text, to: "new.json")
        for file in ["old.json", "new.json", "old.json", "new.json"] {
            #expect(try cli.run("check", file, "--history", "runs.ndjson", "-q", "--fail-on", "never").code == 0)
        }
    }

    /// A folder's `diff.mustache` and `history.mustache` replace the built-in ones, and they may still include the
    /// built-in partials and extend the built-in parent; the other templates stay built in.
    @Test func aFoldersTemplatesReplaceTheBuiltInOnes() throws {
        let cli = try CLI()
        try Self.inputs(cli)
        try cli.temporary.write(
            [
                "mine/diff.mustache": """
                {{<standalone}}{{$footer}}Mine{{/footer}}{{$body}}
                <h1>Changes: {{summary}}</h1>
                <ul>{{#data}}<li>{{relation}} {{before}}→{{after}}</li>{{/data}}</ul>
                {{#relations}}{{#kinds}}{{#entries}}<p>{{path}}{{{description}}}</p>{{/entries}}{{/kinds}}{{/relations}}
                {{/body}}{{/standalone}}
                """,
                "mine/history.mustache": """
                <p>{{#exports}}{{name}};{{/exports}}</p>
                {{#trend}}{{>history-trend}}{{/trend}}
                {{#relations}}<i>{{relation}}={{last}}</i>{{/relations}}
                """,
            ])
        let builtIn = try cli.run("diff", "old.json", "new.json", "--format", "html", "--fail-on", "never")
        let diff = try cli.run(
            "diff", "old.json", "new.json", "--format", "html", "--templates", "mine", "--fail-on", "never")
        #expect(diff.code == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("<h1>Changes: ") && diff.stdout.contains("<li>users "), "\(diff.stdout)")
        #expect(diff.stdout.contains(": username <code>&quot;"), "the entries' description, HTML already")
        #expect(diff.stdout.contains("<p>Mine</p>") && !diff.stdout.contains("<h1>Diff</h1>"))
        // The built-in parent, with the built-in stylesheet inside, as the built-in page has it.
        let style = try #require(builtIn.stdout.range(of: "</style>")).upperBound
        #expect(diff.stdout.hasPrefix(builtIn.stdout[..<style]))

        let history = try cli.run("history", "runs.ndjson", "--format", "html", "--templates", "mine")
        #expect(history.code == 0, "\(history.stderr)")
        #expect(history.stdout.hasPrefix("<p>new.json;old.json;</p>\n<section class=\"charts\""), "\(history.stdout)")
        #expect(history.stdout.contains("<svg class=\"chart\"") && history.stdout.contains("<i>users="))
        #expect(!history.stdout.contains("<h1>History</h1>"))

        // A site project's Templates/ folder, beside its fanout.toml: found without --templates.
        try cli.write("", to: "project/fanout.toml")
        try cli.write(try cli.read("mine/diff.mustache"), to: "project/Templates/diff.mustache")
        try cli.write("body { color: red }\n", to: "project/Templates/style.css")
        let project = try cli.run(
            "diff", "old.json", "new.json", "--config", "project/fanout.toml", "--format", "html", "--fail-on",
            "never")
        #expect(project.code == 0, "\(project.stderr)")
        #expect(project.stdout.contains("<h1>Changes: ") && project.stdout.contains("<style>\nbody { color: red }\n"))
        // The text formats are not rendered from templates.
        #expect(
            try cli.run("diff", "old.json", "new.json", "--templates", "mine", "--fail-on", "never").stdout
                == cli.run("diff", "old.json", "new.json", "--fail-on", "never").stdout)
    }

    /// A template that does not parse is one error naming its file and line, exit 2, and nothing is written.
    @Test func aBadTemplateIsOneErrorAndNothingWritten() throws {
        let cli = try CLI()
        try Self.inputs(cli)
        try cli.write("<h1>\n{{#data}}\n{{relation}}\n", to: "bad-diff/diff.mustache")
        try cli.write("<h1>\n\n{{/trend}}\n", to: "bad-history/history.mustache")
        for (args, file, line) in [
            (
                ["diff", "old.json", "new.json", "--format", "html", "--output", "out.html"], "bad-diff/diff.mustache",
                2
            ),
            (
                ["history", "runs.ndjson", "--format", "html", "--output", "out.html"], "bad-history/history.mustache",
                3
            ),
        ] {
            let folder = String(file.prefix { $0 != "/" })
            let result = try cli.run(args + ["--templates", folder, "--format", "text", "--output", "out.txt"])
            #expect(result.code == 2, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("Error: \(file):\(line): "), "\(result.stderr)")
            #expect(!cli.exists("out.html") && !cli.exists("out.txt"))
        }
        // Text is not rendered from templates: they are not read.
        #expect(try cli.run("history", "runs.ndjson", "--templates", "bad-history").code == 0)
    }
}
