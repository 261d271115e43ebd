import Foundation
import Testing

extension IncrementalBuildTests {
    /// A rebuild reads the cards the previous build kept (`cards/` in the site's cache, docs/site.md "Rebuilds,
    /// progress and timings") instead of rendering them: after the most-followed user posts, every page of their
    /// followers' timelines is rendered again, and only the new post's cards (HTML and Markdown) are. A store that is missing,
    /// unreadable or whose bytes were overwritten only means cards are rendered again: the folder is a clean build's,
    /// byte for byte, every time.
    @Test func aRebuildReadsKeptCardsAndSurvivesADamagedStore() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "80", "--seed", "7", "--out", "export.json").code == 0)
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        let arguments = ["--per-page", "4"]
        let first = try cli.run(["build", "export.json", "--out", "site", "-v"] + arguments)
        #expect(first.code == 0)
        let made = try #require(Self.cards(first))
        #expect(made.rendered > 100 && made.read == 0, "a first build renders every card it shows")

        // A post by the most-followed user, fanned out into their timeline and every follower's, as the app does.
        var posted = 0
        func post() throws -> CLI.Result {
            posted += 1
            let followers = root["followers"] as? [String: [String: Any]] ?? [:]
            let users = (root["users"] as! [String: Any]).keys.sorted()
            let poster = users.max { (followers[$0]?.count ?? 0, $1) < (followers[$1]?.count ?? 0, $0) }!
            let posts = root["posts"] as! [String: [String: [String: Any]]]
            let newest = posts.values.flatMap(\.values).compactMap { $0["created_at"] as? Double }.max() ?? 0
            let key = "-celebrity\(posted)"
            var patch: [String: Any] = [
                "posts/\(poster)/\(key)": [
                    "caption": "Post \(posted) by the *most-followed* user", "created_at": newest + 1,
                    "like_count": 0, "poster": ["uid": poster],
                ] as [String: Any]
            ]
            for reader in [poster] + (followers[poster]?.keys.sorted() ?? []) {
                patch["timeline/\(reader)/\(key)"] = ["poster_uid": poster]
            }
            root = FirebasePatch.apply(patch, to: root)
            try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: cli.url("export.json"))
            return try rebuildAndCompare(cli, after: "post \(posted)", arguments)
        }

        let celebrity = try post()
        let reused = try #require(Self.cards(celebrity))
        #expect(written(celebrity).count > 20, "the followers' timelines are rendered again")
        #expect(reused.rendered == 2, "only the new post's two cards are rendered: \(reused)")
        #expect(reused.read > 20, "the other posts' cards are read from the store: \(reused)")
        // Feed entries are kept as cards are: the followers' feeds read every entry but the new post's (its Atom entry
        // and its JSON Feed item).
        let entries = try #require(Self.feedEntries(celebrity))
        #expect(entries.rendered == 2 && entries.read > 40, "feed entries: \(entries)")

        // Damaged stores: each followed by a new post, which renders the timelines again.
        let store = cli.url(CLI.cache(of: "site") + "/cards")
        let damages: [(String, () throws -> Void)] = [
            (
                "packs overwritten",
                {
                    for pack in try FileManager.default.contentsOfDirectory(atPath: store.path)
                    where pack.hasPrefix("pack-") {
                        let url = store.appendingPathComponent(pack)
                        let size = try Data(contentsOf: url).count
                        try Data(repeating: UInt8(ascii: "x"), count: size).write(to: url)
                    }
                }
            ),
            (
                "index cut short",
                {
                    let index = store.appendingPathComponent("index")
                    try Data(contentsOf: index).dropLast(5).write(to: index)
                }
            ),
            (
                "packs deleted",
                {
                    for pack in try FileManager.default.contentsOfDirectory(atPath: store.path)
                    where pack.hasPrefix("pack-") {
                        try FileManager.default.removeItem(at: store.appendingPathComponent(pack))
                    }
                }
            ),
            ("store deleted", { try FileManager.default.removeItem(at: store) }),
        ]
        for (damage, apply) in damages {
            try apply()
            let rebuilt = try post()
            let cards = try #require(Self.cards(rebuilt))
            #expect(cards.read == 0 && cards.rendered > 20, "\(damage): every card shown is rendered again: \(cards)")
            // The store is whole again: the next post renders its own cards alone.
            let next = try #require(Self.cards(try post()))
            #expect(next.rendered == 2 && next.read > 20, "after \(damage): \(next)")
        }

        // Feed entries link with the base URL: another one renders every feed's entries again, as a clean build
        // with it does.
        let based = try rebuildAndCompare(cli, after: "base URL", arguments + ["--base-url", "https://example.org/"])
        #expect(try #require(Self.feedEntries(based)).read == 0)

        // `--force` ignores the store.
        let forced = try cli.run(["build", "export.json", "--out", "site", "-v", "--force"] + arguments)
        #expect(try #require(Self.cards(forced)).read == 0)
    }

    /// The cards `-v` says a build rendered and read from the previous build's store.
    static func cards(_ result: CLI.Result) -> (rendered: Int, read: Int)? { counts(result, "cards") }

    /// The feed entries `-v` says a build rendered and read from the previous build's store.
    static func feedEntries(_ result: CLI.Result) -> (rendered: Int, read: Int)? { counts(result, "feed entries") }

    static func counts(_ result: CLI.Result, _ what: String) -> (rendered: Int, read: Int)? {
        guard
            let line = result.stderr.split(separator: "\n").first(where: { $0.hasPrefix("  \(what): ") }),
            let match = line.dropFirst(what.count + 4).wholeMatch(
                of: /([0-9,]+) rendered, ([0-9,]+) read from the previous build/),
            let rendered = Int(match.1.filter(\.isNumber)), let read = Int(match.2.filter(\.isNumber))
        else { return nil }
        return (rendered, read)
    }
}
