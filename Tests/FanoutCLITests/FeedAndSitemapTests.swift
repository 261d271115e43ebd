import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Atom feeds per timeline and the sitemap, read back as XML the way a feed reader or crawler would.
@Suite struct FeedAndSitemapTests {
    static let atom = "http://www.w3.org/2005/Atom"

    func xml(_ text: String, _ name: String) throws -> XMLElement {
        let document = try XMLDocument(data: Data(text.utf8), options: [])
        return try #require(document.rootElement(), "\(name) has a root element")
    }

    /// The `href` of an element's first `link` child (read from its markup: FoundationXML on Linux does not
    /// find attributes of elements in a default namespace by name).
    func linkHref(_ element: XMLElement) -> String? {
        guard let link = children(element, "link").first else { return nil }
        return link.xmlString.firstMatch(of: /href="([^"]*)"/).map { String($0.output.1) }
    }

    func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        element.elements(forName: name)
    }

    func value(_ element: XMLElement, _ name: String) -> String? {
        children(element, name).first?.stringValue
    }

    @Test func everyTimelineHasAWellFormedAtomFeedLinkingItsPostPages() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "60", "--seed", "11", "--out", "export.json").code == 0)
        let oracle = try DerivedDataOracle(exportAt: cli.url("export.json"))
        // A caption with markup and an ampersand, so the feed must escape it.
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var posts = root["posts"] as! [String: [String: [String: Any]]]
        // The newest post of all, so that it is among the 50 newest of every timeline holding it.
        let (owner, key) = posts.flatMap { owner, list in
            list.map { (owner, $0.key, ($0.value["created_at"] as? Double) ?? 0) }
        }
        .max { ($0.2, $0.1) < ($1.2, $1.1) }.map { ($0.0, $0.1) }!
        posts[owner]![key]!["caption"] = "Fish & <b>chips</b> \u{1}"
        root["posts"] = posts
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))

        let build = try cli.run("build", "export.json", "--out", "site", "--per-page", "4")
        #expect(build.code == 0, "\(build.stderr)")
        let timelines = try TimelinePages(cli, site: "site")
        #expect(timelines.files.count == oracle.timelines.count)
        var sawEscapedCaption = false
        for (uid, files) in timelines.files {
            let folder = (files[0] as NSString).deletingLastPathComponent
            let text = try cli.read("site/\(folder)/feed.xml")
            let feed = try xml(text, "\(folder)/feed.xml")
            #expect(feed.name == "feed" && feed.uri == Self.atom, "\(uid): an Atom feed")
            #expect(text.contains("<feed xmlns=\"\(Self.atom)\">"))
            #expect(value(feed, "id")?.hasPrefix("tag:") == true, "without a base URL, ids are tag: URIs")
            #expect(value(feed, "title")?.isEmpty == false)
            let entries = children(feed, "entry")
            let timeline = oracle.timelines[uid]!
            #expect(entries.count == min(timeline.count, 50), "\(uid): the newest posts, not only the first page")
            // updated is the newest post's time, not the build's.
            let times = entries.compactMap { value($0, "updated") }
            #expect(value(feed, "updated") == (times.max() ?? "1970-01-01T00:00:00Z"), "\(uid): updated")
            for entry in entries {
                #expect(value(entry, "id") != nil && value(entry, "title") != nil && value(entry, "updated") != nil)
                let href = try #require(linkHref(entry))
                #expect(href.hasPrefix("../../posts/"), "relative link \(href)")
                let target = cli.url("site/\(folder)/\(href)").standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(uid): entry links \(href)")
                // The control character, which XML cannot hold, is spelled out.
                // The caption's text: its raw HTML left out, as on its page.
                if value(entry, "summary") == "Fish & chips \\u{1}" { sawEscapedCaption = true }
            }
            // The timeline pages advertise the feed.
            #expect(try cli.read("site/\(files[0])").contains("type=\"application/atom+xml\""))
        }
        #expect(sawEscapedCaption, "the caption is escaped, and the control character spelled out")

        // Without a base URL there is no sitemap, whose protocol forbids relative URLs; the build says so once.
        #expect(!cli.exists("site/sitemap.xml"))
        #expect(
            build.stderr.split(separator: "\n").count { $0.contains("sitemap") } == 1
                && build.stderr.contains("--base-url"),
            "\(build.stderr)")
    }

    /// Atom titles and summaries are the caption's text: feed readers show them as written, so Markdown source
    /// (`*harbour*`) and raw HTML would show as such.
    @Test func feedTitlesAreTheCaptionsPlainText() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(try cli.run("build", demo, "--out", "site", "--pages", "feeds").code == 0)
        let feeds = cli.files(under: "site").filter { $0.hasSuffix("feed.xml") }
        let titles = try feeds.flatMap { file in
            children(try xml(try cli.read("site/\(file)"), file), "entry").compactMap { value($0, "title") }
        }
        #expect(titles.contains("First light over the harbour 🌅"), "\(titles)")
        #expect(titles.contains("Rainy Sunday reading list"), "raw HTML left out: \(titles)")
        #expect(!titles.contains { $0.contains("*") || $0.contains("`") || $0.contains("<") }, "\(titles)")
    }

    @Test func baseURLMakesFeedAndSitemapURLsAbsoluteWhilePageLinksStayRelative() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let build = try cli.run("build", demo, "--out", "site", "--base-url", "https://feeds.example.com/demo")
        #expect(build.code == 0, "\(build.stderr)")
        let sitemap = try cli.read("site/sitemap.xml")
        let locations = sitemap.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.output.1) }
        #expect(!locations.isEmpty && locations.allSatisfy { $0.hasPrefix("https://feeds.example.com/demo/") })
        #expect(locations.contains("https://feeds.example.com/demo/index.html"))
        // It lists every HTML page of the site, in byte order.
        let htmlPages = cli.files(under: "site").filter { $0.hasSuffix(".html") }
        #expect(
            locations
                == htmlPages.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
                    "https://feeds.example.com/demo/" + $0
                })
        #expect(!build.stderr.contains("sitemap"), "nothing to say with a base URL")
        for file in cli.files(under: "site") where file.hasSuffix("feed.xml") {
            let feed = try xml(try cli.read("site/\(file)"), file)
            #expect(value(feed, "id") == "https://feeds.example.com/demo/\(file)")
            for entry in children(feed, "entry") {
                let href = linkHref(entry) ?? ""
                #expect(href.hasPrefix("https://feeds.example.com/demo/posts/"), "\(href)")
            }
        }
        for file in cli.files(under: "site") where file.hasSuffix(".html") {
            #expect(!(try cli.read("site/\(file)")).contains("feeds.example.com"), "\(file) links stay relative")
        }
    }

    @Test func badPageSizeOrBaseURLIsAUsageErrorAndWritesNothing() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        for args in [
            ["--per-page", "0"], ["--base-url", "feeds.example.com"], ["--base-url", "javascript:alert(1)"],
            ["--base-url", "https://example.org/feeds#frag"], ["--base-url", "https://example.org/?site=1"],
            ["--pages", "sitemap,index"],
        ] {
            let result = try cli.run(["build", demo, "--out", "site"] + args)
            #expect(result.code == 2, "\(args): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one message: \(result.stderr)")
            #expect(!cli.exists("site"), "\(args): nothing written")
        }
        let fragment = try cli.run("build", demo, "--out", "site", "--base-url", "https://example.org/feeds#frag")
        #expect(
            fragment.stderr.contains("fragment") && fragment.stderr.contains("use https://example.org/feeds instead"),
            "\(fragment.stderr)")
    }
}
