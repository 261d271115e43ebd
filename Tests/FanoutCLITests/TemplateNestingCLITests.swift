import FanoutTestSupport
import Foundation
import Testing

/// Templates that would recurse without end, or nest deeper than any stack holds, through the command line: `build`
/// refuses them with exit 2, the template's file, line and cycle, and nothing written; `serve` keeps its last good
/// state and shows the error (docs/site.md "Template nesting").
@Suite struct TemplateNestingCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// A timeline template that includes `partial` where the built-in one shows its posts.
    static func timeline(including partial: String) -> String {
        "<main>{{#posts}}{{> \(partial)}}{{/posts}}</main>\n"
    }

    /// Runs `build` with `templates` (file name → text) as the project's templates and checks the refusal.
    func expectRefused(
        _ templates: [String: String], file: String, line: Int, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let cli = try CLI()
        for (name, text) in templates { try cli.write(text, to: "T/" + name) }
        let result = try cli.run("build", Self.demo, "--templates", "T", "--out", "site")
        #expect(result.code == 2, "exit \(result.code): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr == "Error: T/\(file):\(line): \(message)\n", "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(!cli.exists("site"), "nothing written", sourceLocation: sourceLocation)
    }

    @Test func aPartialThatIncludesItself() throws {
        try expectRefused(
            ["heart.mustache": "<b>\n{{> heart}}</b>\n", "timeline.mustache": Self.timeline(including: "heart")],
            file: "heart.mustache", line: 2, "template \"heart\" includes itself (heart → heart)")
    }

    @Test func partialsThatIncludeEachOther() throws {
        try expectRefused(
            [
                "a.mustache": "a\n\n{{#liked}}{{> b}}{{/liked}}\n", "b.mustache": "{{> a}}\n",
                "timeline.mustache": Self.timeline(including: "a"),
            ],
            file: "b.mustache", line: 1, "templates include each other without end: a → b → a")
    }

    @Test func fiveThousandNestedSections() throws {
        let deep = String(repeating: "{{#posts}}", count: 5000) + "x" + String(repeating: "{{/posts}}", count: 5000)
        try expectRefused(
            ["timeline.mustache": "<main>\n" + deep + "\n</main>\n"], file: "timeline.mustache", line: 2,
            "sections, blocks and partials nest more than 100 deep")
    }

    /// The depth counts across partials: 60 sections in a partial inside 60 in the template that includes it.
    @Test func nestingAcrossPartials() throws {
        let sixty = { (inner: String) in
            String(repeating: "{{#posts}}", count: 60) + inner + String(repeating: "{{/posts}}", count: 60)
        }
        try expectRefused(
            ["deep.mustache": sixty("x") + "\n", "timeline.mustache": "\n" + sixty("{{> deep}}") + "\n"],
            file: "timeline.mustache", line: 2,
            "sections, blocks and partials nest more than 100 deep (through timeline → deep)")
    }

    /// A partial that inherits the layout whose `{{$body}}` the page including it fills: the page's override wins
    /// inside the partial's layout too, and includes the partial again (found by the fuzz target:
    /// `fuzz/regressions/template-post-card-inherits-layout.mustache`). The cycle is walked from the user's
    /// template, and named in it.
    @Test func aPartialThatInheritsTheLayoutOfItsPage() throws {
        try expectRefused(
            ["post-card.mustache": "{{<layout}}{{$body}}x{{/body}}{{/layout}}\n"], file: "post-card.mustache",
            line: 1, "templates include each other without end: post-card → layout → post-card (in {{$body}} of post)")
    }

    /// A partial that includes itself after changing the delimiters is found as one written with `{{ }}` is.
    @Test func aPartialThatIncludesItselfWithOtherDelimiters() throws {
        try expectRefused(
            [
                "heart.mustache": "{{=<% %>=}}\n<b><%> heart%></b>\n",
                "timeline.mustache": Self.timeline(including: "heart"),
            ],
            file: "heart.mustache", line: 2, "template \"heart\" includes itself (heart → heart)")
    }

    /// Nine sections over a timeline's posts inside each other are legal and would render 8⁹ times, each writing a
    /// long text: `build` stops at the render budget (here its 256 MiB) with exit 2, the page, the template's lines,
    /// and nothing written; `serve` answers that page with the error and keeps serving the others.
    @Test func sectionsOverListsNestedNineDeepRunOutOfTheBudget() throws {
        let cli = try CLI()
        // Text rather than tags: swift-mustache's parser, which checks every template first, is slow on many tags.
        let long = "<p>{{caption}}</p>" + String(repeating: "x", count: 65_536)
        let nested =
            String(repeating: "{{#posts}}\n", count: 9) + long + "\n" + String(repeating: "{{/posts}}\n", count: 9)
        try cli.write("<main>\n" + nested + "</main>\n", to: "T/timeline.mustache")
        let result = try cli.run("build", Self.demo, "--templates", "T", "--out", "site")
        #expect(result.code == 2, "exit \(result.code): \(result.stderr)")
        let lines = (2...10).map { "{{#posts}} (line \($0))" }.joined(separator: " › ")
        #expect(result.stderr.hasPrefix("Error: T/timeline.mustache:2: rendering users/"), "\(result.stderr)")
        // The budget grows with the page's lists (16 renders an item above 10 million), so its figure varies by page.
        #expect(result.stderr.contains("/index.html went past the render budget (10,"), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                " lists rendered or 256 MiB written) in \(lines): "
                    + "sections over lists nested inside each other multiply what a page renders; no page was written\n"
            ),
            "\(result.stderr)")
        #expect(!cli.exists("site"), "nothing written")

        let page = try #require(result.stderr.split(separator: " ").first { $0.hasPrefix("users/") })
        let server = try ServeProcess(cli, [Self.demo, "--templates", "T"])
        defer { _ = server.stop(SIGTERM) }
        let timeline = try server.request("/" + page)
        #expect(
            timeline.status == 500 && timeline.text.contains("went past the render budget"),
            "\(timeline.status) \(timeline.text.prefix(600))")
        #expect(try server.request("/report.html").status == 200)
    }

    /// A `--templates` folder that is not there is one error naming it, in build and in diff, nothing written.
    @Test func aTemplatesFolderThatIsNotThereIsAnError() throws {
        let cli = try CLI()
        let build = try cli.run("build", Self.demo, "--templates", "nowhere", "--out", "site")
        #expect(build.code == 2 && build.stderr == "Error: template nowhere: no such folder\n", "\(build.stderr)")
        #expect(!cli.exists("site"))
        let diff = try cli.run(
            "diff", Self.demo, Self.demo, "--format", "html", "--templates", "nowhere", "--output", "diff.html")
        #expect(diff.code == 2 && diff.stderr == "Error: template nowhere: no such folder\n", "\(diff.stderr)")
        #expect(!cli.exists("diff.html"))
    }

    /// Blocks of other names, and a partial whose own layout has none of the page's blocks, still build.
    @Test func aPartialWithItsOwnLayoutBuilds() throws {
        let cli = try CLI()
        try cli.write("<div>{{$card}}{{/card}}</div>\n", to: "T/card-frame.mustache")
        try cli.write(
            "{{<card-frame}}{{$card}}<p>{{caption}}</p>{{/card}}{{/card-frame}}\n", to: "T/post-card.mustache")
        let result = try cli.run("build", Self.demo, "--templates", "T", "--out", "site")
        #expect(result.code == 0, "\(result.stderr)")
    }

    /// At the bound, a template renders as swift-mustache renders it, and the build ends normally.
    @Test func nestingAtTheBoundBuilds() throws {
        let cli = try CLI()
        let nested =
            String(repeating: "{{#title}}", count: 100) + "[{{title}}]" + String(repeating: "{{/title}}", count: 100)
        try cli.write("<main>" + nested + "</main>\n", to: "T/timeline.mustache")
        let result = try cli.run("build", Self.demo, "--templates", "T", "--out", "site")
        #expect(result.code == 0, "\(result.stderr)")
        let page = try #require(
            cli.files(under: "site").first { $0.hasPrefix("users/") && $0.hasSuffix("/index.html") })
        #expect(try cli.read("site/" + page).contains("<main>["))
    }

    /// `serve` started with good templates: a partial cycle written meanwhile shows its error over the last good
    /// pages, the server keeps answering, and the mended template is served again.
    @Test func serveKeepsItsLastGoodStateOnACycle() throws {
        let cli = try CLI()
        try cli.write("<b>{{liked}}</b>\n", to: "T/heart.mustache")
        try cli.write(Self.timeline(including: "heart"), to: "T/timeline.mustache")
        let server = try ServeProcess(cli, [Self.demo, "--templates", "T"])
        defer { _ = server.stop(SIGTERM) }
        // A timeline, which includes the partial, where `build` writes it.
        #expect(try cli.run("build", Self.demo, "--templates", "T", "--out", "site").code == 0)
        let timeline = "/" + (try #require(cli.files(under: "site").first { $0.hasSuffix("/index.html") }))
        #expect(try server.request(timeline).text.contains("<main><b>"))
        try cli.write("<b>{{> heart}}</b>\n", to: "T/heart.mustache")
        // The error is shown on the pages with a body (the report; this timeline template has none).
        var report = ""
        for _ in 0..<150 where !report.contains("fanout-serve-error") {
            Thread.sleep(forTimeInterval: 0.1)
            report = try server.request("/report.html").text
        }
        #expect(report.contains("id=\"fanout-serve-error\""), "\(report.suffix(600))")
        #expect(report.contains("T/heart.mustache:1") && report.contains("heart → heart"), "\(report.suffix(600))")
        // The last good state still serves the timeline, which renders the partial.
        #expect(try server.request(timeline).text.contains("<main><b>"))
        try cli.write("<b>{{liked}}</b>\n", to: "T/heart.mustache")
        for _ in 0..<150 where report.contains("fanout-serve-error") {
            Thread.sleep(forTimeInterval: 0.1)
            report = try server.request("/report.html").text
        }
        #expect(!report.contains("fanout-serve-error"), "\(report.suffix(600))")
    }
}
