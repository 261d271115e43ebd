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
        for name in ["layout.mustache", "timeline.mustache", "timeline.md.mustache", "profile.mustache", "post.mustache",
                     "post-card.mustache", "index.mustache", "report.mustache", "pagination.mustache", "style.css"] {
            #expect(cli.exists("blog/Templates/\(name)"), "a copy of \(name)")
        }
        // Point the project at an export and set what the build should take from the file.
        try FileManager.default.copyItem(at: demo, to: cli.url("blog/export.json"))
        var config = try cli.read("blog/fanout.toml")
        config = config.replacingOccurrences(of: "title = \"Fanout\"", with: "title = \"Project & Co\"")
            .replacingOccurrences(of: "per_page = 50", with: "per_page = 2")
            .replacingOccurrences(of: "out = \"_site\"", with: "out = \"public\"")
            .replacingOccurrences(of: "# base_url = \"https://feeds.example.com/\"", with: "base_url = \"https://blog.example.org/\"")
        try cli.write(config, to: "blog/fanout.toml")
        // Edit a template and add a Markdown page.
        let layout = try cli.read("blog/Templates/layout.mustache")
        try cli.write(layout.replacingOccurrences(of: "<main id=\"main\">", with: "<main id=\"main\"><p class=\"banner\">Edited layout</p>"),
                      to: "blog/Templates/layout.mustache")
        try cli.write("---\ntitle: Contact us\norder: 2\n---\n# Contact\n\nWrite to *support*.\n", to: "blog/Content/contact.md")

        let build = try cli.run(["build"], in: "blog")
        #expect(build.code == 0, "\(build.stderr)")
        #expect(!cli.exists("blog/_site") && cli.exists("blog/public/index.html"), "out comes from fanout.toml")
        let index = try cli.read("blog/public/index.html")
        #expect(index.contains("<p class=\"banner\">Edited layout</p>"), "the edited template is used")
        #expect(index.contains("Project &amp; Co"), "the title comes from fanout.toml")
        #expect(index.contains("href=\"contact.html\">Contact us</a>") && index.contains("href=\"about.html\">About</a>"))
        let contact = try cli.read("blog/public/contact.html")
        #expect(contact.contains("<em>support</em>") && contact.contains("Edited layout"))
        #expect(try cli.read("blog/public/sitemap.xml").contains("<loc>https://blog.example.org/contact.html</loc>"))
        let timelines = try TimelinePages(cli, site: "blog/public")
        #expect(timelines.files.values.contains { $0.count > 1 }, "per_page = 2 paginates")
        #expect(timelines.files.values.allSatisfy { files in
            files.allSatisfy { (try? cli.read("blog/public/\($0)"))?.contains("Edited layout") == true }
        })

        // Command-line options override the file.
        let override = try cli.run(["build", "--per-page", "100", "--out", "other", "--title", "Flags"], in: "blog")
        #expect(override.code == 0, "\(override.stderr)")
        #expect(try TimelinePages(cli, site: "blog/other").files.values.allSatisfy { $0.count == 1 })
        #expect(try cli.read("blog/other/index.html").contains("Flags"))
    }

    @Test func initRefusesANonEmptyFolderAndWritesNothing() throws {
        let cli = try CLI()
        try cli.write("mine", to: "taken/notes.txt")
        let result = try cli.run("init", "taken")
        #expect(result.code == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("not empty"), "\(result.stderr)")
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
