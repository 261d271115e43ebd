import FanoutTestSupport
import Foundation
import Testing

/// The JSON Feed 1.1 beside every timeline's Atom feed (docs/site.md "Pages, feeds and the sitemap"): valid
/// against the schema written from the specification, read by a feed reader's parser as the same feed as the Atom
/// one, advertised by the timeline pages, and rewritten by a rebuild exactly where its Atom feed is.
@Suite struct JSONFeedTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
    static let schema = CLI.repository.appendingPathComponent("Tests/Schemas/json-feed-1.1.json").path
    static let checker = CLI.repository.appendingPathComponent("scripts/validate/json_feed_check.py").path

    /// A generated export whose newest post's caption has markup, an ampersand and a control character.
    static func export(_ cli: CLI) throws {
        #expect(try cli.run("generate", "--users", "40", "--seed", "12", "--out", "export.json").code == 0)
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var posts = root["posts"] as! [String: [String: [String: Any]]]
        let (owner, key) = posts.flatMap { owner, list in
            list.map { (owner, $0.key, ($0.value["created_at"] as? Double) ?? 0) }
        }
        .max { ($0.2, $0.1) < ($1.2, $1.1) }.map { ($0.0, $0.1) }!
        posts[owner]![key]!["caption"] = "Fish & <b>chips</b> \u{1} \"quoted\"\nsecond line"
        root["posts"] = posts
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
    }

    @Test(
        .enabled(
            if: ConsumerPython.has("jsonschema", "feedparser_rs", "rfc3339_validator"),
            "needs jsonschema and feedparser-rs: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func feedsValidateAndReadAsTheirAtomFeeds() throws {
        let cli = try CLI()
        try Self.export(cli)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "4").code == 0)
        let based = try cli.run(
            "build", Self.demo, "--out", "based", "--base-url", "https://feeds.example.com/demo/")
        #expect(based.code == 0, "\(based.stderr)")
        let hostile = CLI.repository.appendingPathComponent("Tests/Fixtures/hostile-export.json").path
        #expect(try cli.run("build", hostile, "--out", "hostile", "--pages", "feeds").code == 0)
        let checked = try ConsumerPython.run(cli, [Self.checker, Self.schema, "site", "based", "hostile"])
        #expect(checked.code == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("JSON Feeds: OK"), "\(checked.stdout)")

        // The checker is no rubber stamp: an item without content, a bad date and a lost item fail it.
        let file = try #require(cli.files(under: "based").first { $0.hasSuffix("feed.json") })
        var feed = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("based/\(file)"))) as? [String: Any])
        var items = try #require(feed["items"] as? [[String: Any]])
        try #require(items.count >= 2)
        items[0]["content_text"] = nil
        items[1]["date_published"] = "yesterday"
        feed["items"] = Array(items.dropLast())
        try JSONSerialization.data(withJSONObject: feed).write(to: cli.url("based/\(file)"))
        let refused = try ConsumerPython.run(cli, [Self.checker, Self.schema, "based"])
        #expect(refused.code == 1)
        #expect(
            refused.stdout.contains("items/0") && refused.stdout.contains("'yesterday' is not a 'date-time'")
                && refused.stdout.contains("first difference"), "\(refused.stdout)")
    }

    @Test func everyAtomFeedHasAJSONFeedBesideItWithTheSamePosts() throws {
        let cli = try CLI()
        try Self.export(cli)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "4").code == 0)
        let atoms = cli.files(under: "site").filter { $0.hasSuffix("/feed.xml") }
        #expect(atoms.count == 40)
        var sawCaption = false
        for atom in atoms {
            let folder = (atom as NSString).deletingLastPathComponent
            let text = try cli.read("site/\(folder)/feed.json")
            let feed = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(atom)")
            #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1")
            #expect(feed["feed_url"] == nil, "no feed URL without a base URL")
            let items = try #require(feed["items"] as? [[String: Any]])
            let atomText = try cli.read("site/\(atom)")
            #expect(items.count == atomText.components(separatedBy: "<entry>").count - 1, "\(atom)")
            for item in items {
                let url = try #require(item["url"] as? String)
                #expect(atomText.contains("href=\"\(url)\""), "the Atom feed links \(url) too")
                #expect(
                    FileManager.default.fileExists(atPath: cli.url("site/\(folder)/\(url)").standardizedFileURL.path))
                #expect((item["id"] as? String)?.hasPrefix("tag:") == true)
                // As the Atom feed spells it: markup left out, the control character spelled out.
                if item["content_text"] as? String == "Fish & chips \\u{1} \"quoted\"\nsecond line" {
                    sawCaption = true
                    #expect(item["title"] as? String == "Fish & chips \\u{1} \"quoted\"")
                }
            }
            // Each timeline page advertises both feeds, in its head and in its text.
            let page = try cli.read("site/\(folder)/index.html")
            #expect(page.contains("<link rel=\"alternate\" type=\"application/feed+json\""))
            #expect(page.contains("href=\"feed.json\" type=\"application/feed+json\">JSON Feed</a>"))
        }
        #expect(sawCaption, "the caption's text, its markup left out and its control character spelled out")

        let based = try cli.run("build", Self.demo, "--out", "based", "--base-url", "https://feeds.example.com/demo")
        #expect(based.code == 0)
        for file in cli.files(under: "based") where file.hasSuffix("feed.json") {
            let feed =
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("based/\(file)"))) as! [String: Any]
            #expect(feed["feed_url"] as? String == "https://feeds.example.com/demo/\(file)")
            let items = feed["items"] as! [[String: Any]]
            #expect(
                items.allSatisfy { ($0["id"] as? String)?.hasPrefix("https://feeds.example.com/demo/posts/") == true })
        }
    }

    /// What a rebuild writes of the feeds: a feed.json wherever its feed.xml is written, and nothing when nothing
    /// changed, since both are made from the same posts.
    @Test func rebuildsRewriteAJSONFeedWhereTheyRewriteItsAtomFeed() throws {
        let cli = try CLI()
        try Self.export(cli)
        func build() throws -> Set<String> {
            let result = try cli.run("build", "export.json", "--out", "site", "-v")
            #expect(result.code == 0, "\(result.stderr)")
            return Set(
                result.stderr.split(separator: "\n").compactMap { line in
                    line.hasPrefix("  wrote ") ? String(line.dropFirst(8)) : nil
                })
        }
        let first = try build()
        #expect(first.filter { $0.hasSuffix("feed.json") }.count == 40, "\(first.count) files")
        #expect(try build().isEmpty, "an unchanged export writes nothing")

        // A new caption on a post that some timelines list: their two feeds, and no other.
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var posts = root["posts"] as! [String: [String: [String: Any]]]
        let owner = posts.keys.sorted()[0], key = posts[owner]!.keys.sorted()[0]
        posts[owner]![key]!["caption"] = "A new caption"
        root["posts"] = posts
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
        let written = try build()
        let atoms = Set(written.filter { $0.hasSuffix("feed.xml") }.map { $0.dropLast(4) })
        let jsons = Set(written.filter { $0.hasSuffix("feed.json") }.map { $0.dropLast(5) })
        #expect(!atoms.isEmpty && atoms == jsons, "\(written.sorted())")
    }
}
