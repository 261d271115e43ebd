import Foundation
import Testing

/// Bad input gets one clear message, exit code 2, and nothing written.
@Suite struct BadInputTests {
    @Test func malformedJSONNamesLineAndColumnAndWritesNothing() throws {
        let cli = try CLI()
        try cli.write("{\n  \"users\": {\n    \"u1\": {\"username\": \"a\",}\n  }\n}\n", to: "bad.json")
        for args in [
            ["check", "bad.json"], ["build", "bad.json", "--out", "site"], ["export", "bad.json", "--out", "snap"],
        ] {
            let result = try cli.run(
                args[0], args[1], args.count > 2 ? args[2] : "--fail-on", args.count > 3 ? args[3] : "error")
            #expect(result.code == 2, "\(args)")
            #expect(result.stderr.contains("bad.json: invalid JSON at line 3, column "), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one message: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!cli.exists("site") && !cli.exists("snap"))
        #expect(cli.files(under: ".").sorted() == ["bad.json"], "no partial output, no temporary folders left")
    }

    @Test func missingFileAndNonExportJSON() throws {
        let cli = try CLI()
        let missing = try cli.run("check", "nope.json")
        #expect(missing.code == 2 && missing.stderr.contains("cannot read nope.json"))
        try cli.write("[1, 2, 3]", to: "array.json")
        let array = try cli.run("check", "array.json")
        #expect(array.code == 2 && array.stderr.contains("not a Firebase export"))
        try cli.write("{\"comments\": {}}", to: "other.json")
        let other = try cli.run("check", "other.json")
        #expect(
            other.code == 2 && other.stderr.contains("cannot tell the layout") && other.stderr.contains("\"comments\""))
    }

    @Test func keysFromTheFileAreQuotedAsJSONInErrors() throws {
        let cli = try CLI()
        // A top-level key holding a terminal escape sequence, a newline and a quote.
        try cli.write(#"{"\u001b[2Jx\ny\"z": {}}"#, to: "odd.json")
        for args in [["check", "odd.json"], ["check", "odd.json", "--schema", "makestagram"]] {
            let result = try cli.run(args)
            #expect(result.code == 2, "\(args)")
            #expect(!result.stderr.contains("\u{1B}"), "no raw escape byte: \(result.stderr)")
            #expect(result.stderr.contains(#""\u001b[2Jx\ny\"z""#), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    @Test func badUsageExitsTwo() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(try cli.run("check", demo, "--rule", "no-such-rule=off").code == 2)
        #expect(try cli.run("check", demo, "--rule", "like-count-mismatch=loud").code == 2)
        #expect(try cli.run("check", demo, "--fail-on", "sometimes").code == 2)
        #expect(try cli.run("check", demo, "--schema", "nosuch").code == 2)
        #expect(try cli.run("check").code == 2)
        #expect(try cli.run("frobnicate").code == 2)
        let help = try cli.run("check", "--help")
        #expect(help.code == 0 && help.stdout.contains("--fail-on"))
    }

    @Test func buildRefusesAForeignFolderAndReplacesItsOwn() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        try cli.write("my notes", to: "docs/notes.txt")
        let refused = try cli.run("build", demo, "--out", "docs")
        #expect(refused.code == 2 && refused.stderr.contains("refusing to replace"))
        #expect(try cli.read("docs/notes.txt") == "my notes")
        #expect(cli.files(under: "docs") == ["notes.txt"])
        // A build reads the cache's manifest and walks the folder while the export is read, before claiming the
        // folder (SitePrefetch): a foreign folder with a cache holding a manifest (but no record of the folder) is
        // still refused, and nothing in either touched; so is one holding an earlier Fanout's manifest.
        let manifest = "fanout-manifest 2\n0000000000000001 0000000000000002 notes.txt\n"
        try cli.write(manifest, to: ".fanout-cache/papers/manifest")
        try cli.write("", to: ".fanout-cache/papers/.fanout-output")
        try cli.write(manifest, to: "papers/.fanout-manifest")
        try cli.write("mine", to: "papers/notes.txt")
        let refusedAgain = try cli.run("build", demo, "--out", "papers")
        #expect(refusedAgain.code == 2 && refusedAgain.stderr.contains("refusing to replace"))
        #expect(try cli.read("papers/notes.txt") == "mine")
        #expect(try cli.read("papers/.fanout-manifest") == manifest)
        #expect(cli.files(under: ".fanout-cache/papers") == [".fanout-output", "manifest"])

        #expect(try cli.run("build", demo, "--out", "site").code == 0)
        try cli.write("stale", to: "site/stale.html")
        // A rebuild updates the files it wrote and leaves others alone, as Hugo does; --force replaces the folder
        // whole, as a first build (docs/site.md "Rebuilds, progress and timings").
        #expect(try cli.run("build", demo, "--out", "site", "--title", "Other").code == 0)
        #expect(try cli.read("site/stale.html") == "stale")
        #expect(try cli.run("build", demo, "--out", "site", "--force").code == 0)
        #expect(!cli.exists("site/stale.html"), "a forced build replaces the folder Fanout made")
        #expect(cli.exists("site/index.html"))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)
        #expect(siblings.allSatisfy { !$0.contains("fanout-tmp") && !$0.contains("fanout-old") })
    }

    /// A `Content/` page or a template folder's file whose page would land on another page's file is refused,
    /// naming both, before anything is written; a rebuild would otherwise flip the file between them.
    @Test(arguments: [
        ("Content/report.md", "report.html", "the validation report and Content/report.md", [String]()),
        ("Templates/index.html", "index.html", "the index and Templates/index.html", []),
        (
            "Templates/sitemap.xml", "sitemap.xml", "Templates/sitemap.xml and the sitemap",
            ["--base-url", "https://example.org/"]
        ),
    ])
    func twoPagesForOneFileAreRefused(file: String, path: String, names: String, options: [String]) throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        try cli.write("# Mine\n", to: file)
        for folder in ["Content", "Templates"] {
            try FileManager.default.createDirectory(at: cli.url(folder), withIntermediateDirectories: true)
        }
        let project = ["--content", "Content", "--templates", "Templates"]
        let refused = try cli.run(["build", demo, "--out", "site"] + project + options)
        #expect(refused.code == 2, "\(refused.stderr)")
        #expect(refused.stderr == "Error: two pages would be written to \(path): \(names); rename one of them\n")
        #expect(!cli.exists("site"), "nothing written")
        // The same on a rebuild over a site built before the clash: the site is left as it was.
        try FileManager.default.removeItem(at: cli.url(file))
        #expect(try cli.run(["build", demo, "--out", "site"] + project + options).code == 0)
        let before = cli.files(under: "site")
        try cli.write("# Mine\n", to: file)
        #expect(try cli.run(["build", demo, "--out", "site"] + project + options).code == 2)
        #expect(cli.files(under: "site") == before)
    }

    @Test func hostileStringsAreEscapedEverywhere() throws {
        let cli = try CLI()
        try cli.write(
            """
            {"users": {"u1": {"username": "<script>alert(1)</script>"}, "u2": {"username": "\\"><svg onload=alert(2)>"}},
             "posts": {"u1": {"-Kfm1DtVx0kQ9zPq2Lm7": {"created_at": 1490119356, "image_height": 1,
                "image_url": "javascript:alert(3)", "like_count": 1,
                "poster": {"uid": "u1", "username": "<script>alert(1)</script>"},
                "caption": "<iframe src=x></iframe> <img src=x onerror=alert(4)> [click](javascript:alert(5))"}}},
             "postLikes": {"-Kfm1DtVx0kQ9zPq2Lm7": {"u2": true}},
             "following": {"u2": {"u1": true}}, "followers": {"u1": {"u2": true}},
             "timeline": {"u1": {"-Kfm1DtVx0kQ9zPq2Lm7": {"poster_uid": "u1"}}, "u2": {"-Kfm1DtVx0kQ9zPq2Lm7": {"poster_uid": "u1"}}}}
            """, to: "evil.json")
        let build = try cli.run("build", "evil.json", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let pages = cli.files(under: "site").filter { $0.hasSuffix(".html") }
        #expect(pages.count >= 7)
        for page in pages {
            let html = SearchScriptTag.removed(from: try cli.read("site/\(page)"))
            #expect(!html.contains("<script"), "\(page)")
            #expect(!html.contains("<svg onload"), "\(page)")  // pages draw their own <svg> charts
            #expect(!html.contains("<iframe"), "\(page)")
            #expect(!html.contains("onerror=alert"), "\(page)")
            #expect(!html.contains("javascript:"), "\(page)")
        }
        let timeline = try cli.read("site/\(pages.first { $0.hasPrefix("users/") && $0.hasSuffix("index.html") }!)")
        #expect(timeline.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        for twin in cli.files(under: "site").filter({ $0.hasSuffix(".md") }) {
            let markdown = try cli.read("site/\(twin)")
            #expect(!markdown.contains("<script>") && !markdown.contains("](javascript:"), "\(twin)")
        }
    }
}
