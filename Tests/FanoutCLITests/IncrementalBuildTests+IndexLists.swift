import Foundation
import Testing

extension IncrementalBuildTests {
    /// The first page of the index shows the site's totals, so one post or like rewrites it, and a post the pages of
    /// the rows it changes; a page rewritten copies its list of users (`{{#users}}`) from what the previous build kept
    /// (`cards/` in the site's cache, docs/site.md "Rebuilds, progress and timings") when none of its users' values
    /// changed, and renders the others. The folder is a clean build's, byte for byte, after every edit: a post (the
    /// poster's and followers' rows change), a like (no row changes: the first page alone, for its totals), a caption
    /// edited (no index page is rendered; the lists stay kept), and with an index template whose two `{{#users}}`
    /// sections differ, each kept under its own body.
    @Test func aRebuildCopiesTheIndexListsItKept() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "80", "--seed", "7", "--out", "export.json").code == 0)
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var arguments = ["--per-page", "4"]
        let pages = 20  // 80 users, 4 a page
        func save(_ patch: [String: Any]) throws {
            root = FirebasePatch.apply(patch, to: root)
            try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: cli.url("export.json"))
        }

        let first = try cli.run(["build", "export.json", "--out", "site", "-v"] + arguments)
        #expect(first.code == 0)
        #expect(try #require(Self.userLists(first)) == (pages, 0), "a first build renders every page's list")

        // A post by the first user, fanned out into their timeline and their followers'.
        let users = (root["users"] as! [String: Any]).keys.sorted()
        let followers = root["followers"] as? [String: [String: Any]] ?? [:]
        var patch: [String: Any] = [
            "posts/\(users[0])/-indexlists1": [
                "caption": "A post", "created_at": 2_000_000_000.0, "like_count": 0, "poster": ["uid": users[0]],
            ] as [String: Any]
        ]
        for reader in [users[0]] + (followers[users[0]]?.keys.sorted() ?? []) {
            patch["timeline/\(reader)/-indexlists1"] = ["poster_uid": users[0]]
        }
        try save(patch)
        let posted = try #require(Self.userLists(try rebuildAndCompare(cli, after: "a post", arguments)))
        #expect(posted.rendered >= 1 && posted.rendered < pages, "the pages of changed rows: \(posted)")
        #expect(posted.read <= 1, "at most the first page's list, rewritten for its totals alone: \(posted)")

        // A like changes the totals, not a row: the first page alone is rewritten, its list copied.
        let likes = root["postLikes"] as! [String: [String: Any]]
        let liked = likes.keys.sorted().first { (likes[$0]?.count ?? 0) < users.count }!
        let liker = users.first { likes[liked]?[$0] == nil }!
        try save(["postLikes/\(liked)/\(liker)": true])
        #expect(try #require(Self.userLists(try rebuildAndCompare(cli, after: "a like", arguments))) == (0, 1))

        // A caption edited renders cards and timelines but no index page; the lists stay kept for the next like.
        let owner = users.first { !((root["posts"] as? [String: [String: Any]])?[$0]?.isEmpty ?? true) }!
        let post = (root["posts"] as! [String: [String: Any]])[owner]!.keys.sorted()[0]
        try save(["posts/\(owner)/\(post)/caption": "Edited"])
        let edited = try rebuildAndCompare(cli, after: "a caption", arguments)
        #expect(Self.userLists(edited).map { $0.rendered + $0.read } == 0, "no index page is rendered")
        let another = users.first { $0 != liker && likes[liked]?[$0] == nil }!
        try save(["postLikes/\(liked)/\(another)": true])
        #expect(try #require(Self.userLists(try rebuildAndCompare(cli, after: "a like", arguments))) == (0, 1))

        // Two `{{#users}}` sections with different bodies: each list is kept under its own body's key.
        let templates = cli.url("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let index = try String(
            contentsOf: CLI.repository.appendingPathComponent("Templates/index.mustache"), encoding: .utf8)
        try index.replacingOccurrences(
            of: "{{>pagination}}",
            with: "<ol>{{#users}}<li>{{username}} ({{postCount}})</li>{{/users}}</ol>\n{{>pagination}}"
        ).write(to: templates.appendingPathComponent("index.mustache"), atomically: true, encoding: .utf8)
        arguments += ["--templates", templates.path]
        // Every page rewritten for the new template: its own section is the same body over the same rows, copied;
        // the new one is rendered.
        let sections = try rebuildAndCompare(cli, after: "two sections", arguments)
        #expect(try #require(Self.userLists(sections)) == (pages, pages))
        let third = users.first { ![liker, another].contains($0) && likes[liked]?[$0] == nil }!
        try save(["postLikes/\(liked)/\(third)": true])
        #expect(
            try #require(Self.userLists(try rebuildAndCompare(cli, after: "a like, two sections", arguments)))
                == (0, 2))
    }

    /// The index pages' lists of users `-v` says a build rendered and read from the previous build's store.
    static func userLists(_ result: CLI.Result) -> (rendered: Int, read: Int)? {
        counts(result, "index pages' user lists")
    }
}
