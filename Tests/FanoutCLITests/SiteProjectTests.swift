import Foundation
import Testing

/// `fanout init` scaffolds a site project that `fanout build` then builds from its own settings and files.
@Suite struct SiteProjectTests {
    @Test func initThenEditATemplateAndAddAPageChangesTheBuiltSite() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json")
        let initResult = try cli.run("init", "blog")
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(cli.exists("blog/fanout.toml") && cli.exists("blog/Content/about.md"))
        for name in [
            "layout.mustache", "timeline.mustache", "timeline.md.mustache", "profile.mustache", "post.mustache",
            "post-card.mustache", "index.mustache", "report.mustache", "pagination.mustache", "style.css",
        ] {
            #expect(cli.exists("blog/Templates/\(name)"), "a copy of \(name)")
        }
        #expect(try cli.read("blog/export.json") == String(contentsOf: demo, encoding: .utf8), "the demo export")
        // Set what the build should take from the file.
        var config = try cli.read("blog/fanout.toml")
        config = config.replacingOccurrences(of: "title = \"Fanout\"", with: "title = \"Project & Co\"")
            .replacingOccurrences(of: "per_page = 50", with: "per_page = 2")
            .replacingOccurrences(of: "out = \"_site\"", with: "out = \"public\"")
            .replacingOccurrences(
                of: "# base_url = \"https://feeds.example.com/\"", with: "base_url = \"https://blog.example.org/\"")
        try cli.write(config, to: "blog/fanout.toml")
        // Edit a template and add a Markdown page.
        let layout = try cli.read("blog/Templates/layout.mustache")
        try cli.write(
            layout.replacingOccurrences(
                of: "<main id=\"main\">", with: "<main id=\"main\"><p class=\"banner\">Edited layout</p>"),
            to: "blog/Templates/layout.mustache")
        try cli.write(
            "---\ntitle: Contact us\norder: 2\n---\n# Contact\n\nWrite to *support*.\n", to: "blog/Content/contact.md")

        let build = try cli.run(["build"], in: "blog")
        #expect(build.code == 0, "\(build.stderr)")
        #expect(!cli.exists("blog/_site") && cli.exists("blog/public/index.html"), "out comes from fanout.toml")
        let index = try cli.read("blog/public/index.html")
        #expect(index.contains("<p class=\"banner\">Edited layout</p>"), "the edited template is used")
        #expect(index.contains("Project &amp; Co"), "the title comes from fanout.toml")
        #expect(
            index.contains("href=\"contact.html\">Contact us</a>") && index.contains("href=\"about.html\">About</a>"))
        let contact = try cli.read("blog/public/contact.html")
        #expect(contact.contains("<em>support</em>") && contact.contains("Edited layout"))
        #expect(try cli.read("blog/public/sitemap.xml").contains("<loc>https://blog.example.org/contact.html</loc>"))
        let timelines = try TimelinePages(cli, site: "blog/public")
        #expect(timelines.files.values.contains { $0.count > 1 }, "per_page = 2 paginates")
        #expect(
            timelines.files.values.allSatisfy { files in
                files.allSatisfy { (try? cli.read("blog/public/\($0)"))?.contains("Edited layout") == true }
            })

        // Command-line options override the file.
        let override = try cli.run(["build", "--per-page", "100", "--out", "other", "--title", "Flags"], in: "blog")
        #expect(override.code == 0, "\(override.stderr)")
        #expect(try TimelinePages(cli, site: "blog/other").files.values.allSatisfy { $0.count == 1 })
        #expect(try cli.read("blog/other/index.html").contains("Flags"))
    }

    @Test func aNewProjectBuildsAtOnce() throws {
        let cli = try CLI()
        #expect(try cli.run("init", "fresh").code == 0)
        let build = try cli.run(["build"], in: "fresh")
        #expect(build.code == 0, "\(build.stderr)")
        let index = try cli.read("fresh/_site/index.html")
        #expect(index.contains("alice") && index.contains("carol_sings"), "the demo's users")
        #expect(cli.exists("fresh/_site/about.html"), "the sample page")
    }

    @Test func initChecksTheExportItNamesAndNamesItFromTheProject() throws {
        let cli = try CLI()
        let missing = try cli.run("init", "site", "--export", "backups/latest.json")
        #expect(missing.code == 2, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("--export backups/latest.json: no such file or folder; nothing was written"),
            "\(missing.stderr)")
        #expect(!cli.exists("site"), "nothing written")

        // A path relative to where init runs, written into fanout.toml relative to the project.
        try FileManager.default.createDirectory(at: cli.url("backups"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Content/demo-export.json"), to: cli.url("backups/latest.json"))
        #expect(try cli.run("init", "site", "--export", "backups/latest.json").code == 0)
        #expect(try cli.read("site/fanout.toml").contains("export = \"../backups/latest.json\""))
        #expect(!cli.exists("site/export.json"), "no demo export when the project names its own")
        let build = try cli.run(["build"], in: "site")
        #expect(build.code == 0, "\(build.stderr)")
        #expect(try cli.read("site/_site/index.html").contains("carol_sings"))
    }

    @Test func aSettingAppendedAfterTheRulesTableIsShownWhereItBelongs() throws {
        let cli = try CLI()
        #expect(try cli.run("init", "blog").code == 0)
        for line in ["perpage = 20", "per_page = 20", "Base-URL = \"https://x.example/\""] {
            let config = try cli.read("blog/fanout.toml")
            try cli.write(config + line + "\n", to: "blog/fanout.toml")
            let result = try cli.run(["build"], in: "blog")
            #expect(result.code == 2)
            let key = String(line.prefix { $0 != " " })
            let setting = key.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(
                of: "perpage", with: "per_page")
            #expect(
                result.stderr.contains(
                    "[rules] \(key): not a rule; \(setting) is a setting of the file's top level: "
                        + "move it above [rules]"), "\(result.stderr)")
            try cli.write(config, to: "blog/fanout.toml")
        }
    }

    @Test func aTemplateSyntaxErrorNamesTheFileLineAndSection() throws {
        let cli = try CLI()
        #expect(try cli.run("init", "blog").code == 0)
        let timeline = try cli.read("blog/Templates/timeline.mustache")
        let line =
            try #require(timeline.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "{{/body}}"))
            + 1
        try cli.write(
            timeline.replacingOccurrences(of: "{{/body}}", with: "{{/bod}}"), to: "blog/Templates/timeline.mustache")
        let result = try cli.run(["build"], in: "blog")
        #expect(result.code == 2)
        #expect(
            result.stderr.hasSuffix("Templates/timeline.mustache:\(line): section \"body\" closed by \"/bod\"\n"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Mustache") && !result.stderr.contains("ParserError"), "no Swift debug dump")
        #expect(!cli.exists("blog/_site"), "nothing written")
    }

    @Test func strictFailsOnAValueNoPageGives() throws {
        let cli = try CLI()
        #expect(try cli.run("init", "blog").code == 0)
        #expect(
            try cli.run(["build", "--strict"], in: "blog").code == 0,
            "the built-in templates use only values pages give")
        let profile = try cli.read("blog/Templates/profile.mustache")
        let line =
            try #require(
                profile.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                    $0.contains("{{username}}")
                }) + 1
        try cli.write(
            profile.replacingOccurrences(of: "{{username}}", with: "{{usernmae}}"),
            to: "blog/Templates/profile.mustache")
        #expect(
            try cli.run(["build", "--out", "lenient"], in: "blog").code == 0,
            "without --strict, a missing value renders as nothing")
        let strict = try cli.run(["build", "--strict"], in: "blog")
        #expect(strict.code == 2)
        #expect(
            strict.stderr.contains(
                "Templates/profile.mustache:\(line): \"usernmae\" is a value no page gives profile.mustache (--strict)"),
            "\(strict.stderr)")
        #expect(strict.stderr.split(separator: "\n").count == 1)
    }

    @Test func initRefusesANonEmptyFolderAndWritesNothing() throws {
        let cli = try CLI()
        try cli.write("mine", to: "taken/notes.txt")
        let result = try cli.run("init", "taken")
        #expect(result.code == 2)
        #expect(
            result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("not empty"), "\(result.stderr)")
        #expect(cli.files(under: "taken") == ["notes.txt"], "nothing written")
        #expect(try cli.run("init", "taken/notes.txt").code == 2, "a file is not a folder")
        // An empty folder is fine.
        try FileManager.default.createDirectory(at: cli.url("empty"), withIntermediateDirectories: true)
        #expect(try cli.run("init", "empty").code == 0)
        #expect(cli.exists("empty/fanout.toml"))
    }

    @Test func buildInAProjectWithoutAnExportSaysWhatIsMissing() throws {
        let cli = try CLI()
        let result = try cli.run(["build"], in: ".")
        #expect(result.code == 2 && result.stderr.contains("missing the export"), "\(result.stderr)")
    }
}
