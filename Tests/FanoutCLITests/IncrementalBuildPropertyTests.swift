import FanoutTestSupport
import Foundation
import Testing

/// An incremental build, which renders only the pages whose input changed and carries the others over
/// (docs/site.md "Rebuilds, progress and timings"), must leave exactly the folder a full build of the same inputs
/// writes. Random edits to a site project's export, templates and `Content/` pages, each followed by an incremental
/// build of the project and a clean build into an empty folder, compared byte for byte (the manifest too: the same
/// inputs give the same keys). On failure the message names the seed and the edits so far, so the run can be replayed.
@Suite struct IncrementalBuildPropertyTests {
    /// Builds with small pages, so that an edit moves posts and users across page boundaries, and a base URL, so
    /// that the sitemap and the feeds' absolute links are built too.
    static let siteArguments = ["--per-page", "3", "--base-url", "https://example.com/feeds/"]

    @Test(arguments: [11, 12, 13] as [UInt64])
    func incrementalBuildsEqualFullBuilds(seed: UInt64) throws {
        let cli = try CLI()
        #expect(try cli.run("init", "project").code == 0)
        try FileManager.default.removeItem(at: cli.url("project/export.json"))
        let generated = try cli.run(
            ["generate", "--users", "24", "--seed", "\(seed)", "--defects", "3", "--out", "export.json"], in: "project")
        try #require(generated.code == 0, "\(generated.stderr)")
        var random = SeededGenerator(seed: seed)
        var edits: [String] = []
        let first = try cli.run(["build"] + Self.siteArguments, in: "project")
        try #require(first.code == 0, "\(first.stderr)")
        for step in 1...14 {
            // One to three edits between builds, as between two nightly backups: a like moved from one user to
            // another keeps the post's count, and only the two users' hearts change.
            var project = try Project(cli: cli)
            edits.append(
                (1...1 + random.next(3)).map { _ in
                    (try? project.applyRandomEdit(step: step, random: &random)) ?? "failed edit"
                }
                .joined(separator: " + "))
            let incremental = try cli.run(["build", "-v"] + Self.siteArguments, in: "project")
            try #require(incremental.code == 0, "seed \(seed), edits \(edits): \(incremental.stderr)")
            try? FileManager.default.removeItem(at: cli.url("full"))
            let full = try cli.run(["build", "--out", "../full"] + Self.siteArguments, in: "project")
            try #require(full.code == 0, "seed \(seed), edits \(edits): \(full.stderr)")
            let differences = try Self.differences(cli, "project/_site", "full")
            #expect(differences.isEmpty, "seed \(seed), after edits \(edits): \(differences.prefix(8))")
            if !differences.isEmpty { return }
            // The pages the edit reached were rendered, the others carried over; an edit that reaches nothing
            // carries everything over.
            #expect(incremental.stderr.contains(" carried over, "), "\(incremental.stderr.prefix(300))")
        }
    }

    /// The files that differ between two sites (in one only, or with other bytes), and between the manifests their
    /// caches hold (`caches`, by default beside them: `CLI.cache(of:)`). The rest of the cache is left out: the card store is what the builds kept to
    /// make the site, and a rebuild's holds the same cards in other packs than a full build's; the pages made from it
    /// are compared.
    static func differences(_ cli: CLI, _ a: String, _ b: String, caches: (String, String)? = nil) throws -> [String] {
        let (left, right) = (cli.files(under: a), cli.files(under: b))
        var differing = Array(Set(left).symmetricDifference(right)).sorted().map { "only in one: \($0)" }
        for file in Set(left).intersection(right).sorted()
        where try Data(contentsOf: cli.url("\(a)/\(file)")) != Data(contentsOf: cli.url("\(b)/\(file)")) {
            differing.append("differs: \(file)")
        }
        let (cacheA, cacheB) = caches ?? (CLI.cache(of: a), CLI.cache(of: b))
        let manifests = [cacheA, cacheB].map { try? Data(contentsOf: cli.url($0 + "/manifest")) }
        if manifests[0] == nil || manifests[0] != manifests[1] { differing.append("differs: their caches' manifests") }
        return differing
    }
}

/// A site project on disk, edited the way its owner would: the export changed by the app, templates and
/// `Content/` pages by hand.
private struct Project {
    let cli: CLI
    var root: [String: Any]

    init(cli: CLI) throws {
        self.cli = cli
        root =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("project/export.json"))) as! [String: Any]
    }

    /// Applies one edit chosen by `random`, saves it, and says what it was.
    mutating func applyRandomEdit(step: Int, random: inout SeededGenerator) throws -> String {
        // An edit that finds nothing to change (no like to remove) is drawn again.
        while true {
            let described: String?
            switch random.next(15) {
            case 0: described = try addLike(&random)
            case 1: described = try removeLike(&random)
            case 2: described = try rename(&random, step)
            case 3: described = try addPost(&random, step)
            case 4: described = try deletePost(&random)
            case 5: described = try recaption(&random, step)
            case 6: described = try follow(&random)
            case 7: described = try unfollow(&random)
            case 8: described = try dropTimelineEntry(&random)
            case 9: described = try editTemplate(&random, step)
            case 10: described = try editPartial(&random, step)
            case 11: described = try removeTemplate(&random)
            case 12: described = try editContent(&random, step)
            case 13: described = try moveLike(&random)
            default: described = try addOrRemoveContent(&random, step)
            }
            if let described { return described }
        }
    }

    // MARK: The export

    private var users: [String] { (root["users"] as? [String: Any] ?? [:]).keys.sorted() }

    /// Every post as (poster, key).
    private var posts: [(poster: String, key: String)] {
        (root["posts"] as? [String: [String: Any]] ?? [:]).flatMap { poster, posts in posts.keys.map { (poster, $0) } }
            .sorted { ($0.poster, $0.key) < ($1.poster, $1.key) }
    }

    private func children(_ path: String...) -> [String: Any] {
        var node: Any? = root
        for key in path { node = (node as? [String: Any])?[key] }
        return node as? [String: Any] ?? [:]
    }

    /// Sets (or with nil deletes) the value at `path`, creating objects on the way and removing emptied ones.
    private mutating func set(_ path: [String], _ value: Any?) throws {
        root = FirebasePatch.apply([path.joined(separator: "/"): value ?? NSNull()], to: root)
        try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(
            to: cli.url("project/export.json"))
    }

    mutating func addLike(_ random: inout SeededGenerator) throws -> String? {
        let (post, user) = (posts[random.next(posts.count)].key, users[random.next(users.count)])
        guard children("postLikes", post)[user] == nil else { return nil }
        try set(["postLikes", post, user], true)
        return "like \(post) by \(user)"
    }

    mutating func removeLike(_ random: inout SeededGenerator) throws -> String? {
        let likes = (root["postLikes"] as? [String: [String: Any]] ?? [:]).flatMap { post, users in
            users.keys.map { (post, $0) }
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        guard !likes.isEmpty else { return nil }
        let (post, user) = likes[random.next(likes.count)]
        try set(["postLikes", post, user], nil)
        return "unlike \(post) by \(user)"
    }

    /// A like taken from one user and given to another: the post's count stays, and so, most often, do the
    /// first likers its card names; only the two users' hearts change.
    mutating func moveLike(_ random: inout SeededGenerator) throws -> String? {
        let liked = (root["postLikes"] as? [String: [String: Any]] ?? [:]).filter { $0.value.count >= 4 }.keys.sorted()
        guard !liked.isEmpty else { return nil }
        let post = liked[random.next(liked.count)]
        let likers = children("postLikes", post).keys.sorted()
        let others = users.filter { children("postLikes", post)[$0] == nil }
        guard !others.isEmpty else { return nil }
        let (from, to) = (likers[likers.count - 1 - random.next(2)], others[random.next(others.count)])
        try set(["postLikes", post, from], nil)
        try set(["postLikes", post, to], true)
        return "move like on \(post) from \(from) to \(to)"
    }

    mutating func rename(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        let user = users[random.next(users.count)]
        try set(["users", user, "username"], "renamed_\(step)_\(random.next(1000))")
        return "rename \(user)"
    }

    mutating func addPost(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        let poster = users[random.next(users.count)]
        let key = "-Kedit\(step)x\(random.next(100_000))"
        try set(
            ["posts", poster, key],
            [
                "created_at": 1_500_000_000 + Double(random.next(50_000_000)), "caption": "New post \(step)",
                "image_url": "https://example.com/\(key).jpg", "image_height": 300, "like_count": 0,
                "poster": ["uid": poster, "username": children("users", poster)["username"] ?? poster],
            ] as [String: Any])
        return "add post \(key) by \(poster)"
    }

    mutating func deletePost(_ random: inout SeededGenerator) throws -> String? {
        guard !posts.isEmpty else { return nil }
        let post = posts[random.next(posts.count)]
        try set(["posts", post.poster, post.key], nil)
        return "delete post \(post.key)"
    }

    mutating func recaption(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        guard !posts.isEmpty else { return nil }
        let post = posts[random.next(posts.count)]
        try set(["posts", post.poster, post.key, "caption"], "Caption *\(step)*, edited")
        return "recaption \(post.key)"
    }

    mutating func follow(_ random: inout SeededGenerator) throws -> String? {
        let (user, target) = (users[random.next(users.count)], users[random.next(users.count)])
        guard user != target, children("following", user)[target] == nil else { return nil }
        try set(["following", user, target], true)
        try set(["followers", target, user], true)
        return "\(user) follows \(target)"
    }

    mutating func unfollow(_ random: inout SeededGenerator) throws -> String? {
        let follows = (root["following"] as? [String: [String: Any]] ?? [:]).flatMap { user, targets in
            targets.keys.map { (user, $0) }
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        guard !follows.isEmpty else { return nil }
        let (user, target) = follows[random.next(follows.count)]
        try set(["following", user, target], nil)
        try set(["followers", target, user], nil)
        return "\(user) unfollows \(target)"
    }

    mutating func dropTimelineEntry(_ random: inout SeededGenerator) throws -> String? {
        let entries = (root["timeline"] as? [String: [String: Any]] ?? [:]).flatMap { user, posts in
            posts.keys.map { (user, $0) }
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        guard !entries.isEmpty else { return nil }
        let (user, post) = entries[random.next(entries.count)]
        try set(["timeline", user, post], nil)
        return "drop timeline entry \(post) of \(user)"
    }

    // MARK: Templates and Content/

    private var templateFolder: URL { cli.url("project/Templates") }

    /// Appends a line to a template that pages are rendered with directly.
    func editTemplate(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        let names = [
            "index.mustache", "timeline.mustache", "timeline.md.mustache", "profile.mustache", "post.mustache",
            "page.mustache", "report.mustache", "style.css",
        ]
        return try append(names[random.next(names.count)], "\n<!-- edit \(step) -->\n")
    }

    /// Changes a template that others include, or that renders cards and hearts.
    func editPartial(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        let names = [
            "layout.mustache", "post-card.mustache", "post-card.md.mustache", "heart.mustache",
            "pagination.mustache", "post-list.mustache",
        ]
        let name = names[random.next(names.count)]
        let url = templateFolder.appendingPathComponent(name)
        guard var text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        // Inside the template's output, so that every page using it shows the change.
        guard let end = text.range(of: "}}", options: .backwards) else { return nil }
        text.insert(contentsOf: " edit\(step)", at: end.upperBound)
        try Data(text.utf8).write(to: url)
        return "edit partial \(name)"
    }

    /// Deletes a template, so that the built-in one takes its place.
    func removeTemplate(_ random: inout SeededGenerator) throws -> String? {
        let names = (try FileManager.default.contentsOfDirectory(atPath: templateFolder.path)).sorted()
        guard !names.isEmpty else { return nil }
        let name = names[random.next(names.count)]
        try FileManager.default.removeItem(at: templateFolder.appendingPathComponent(name))
        return "remove template \(name)"
    }

    func editContent(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        try append(random.next(2) == 0 ? "../Content/about.md" : "../Content/index.md", "\nEdited in step \(step).\n")
    }

    func addOrRemoveContent(_ random: inout SeededGenerator, _ step: Int) throws -> String? {
        let folder = cli.url("project/Content")
        let added = (try FileManager.default.contentsOfDirectory(atPath: folder.path)).filter { $0.hasPrefix("extra-") }
            .sorted()
        if !added.isEmpty, random.next(2) == 0 {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(added[0]))
            return "remove page \(added[0])"
        }
        try Data("---\ntitle: Extra \(step)\norder: \(random.next(5))\n---\n# Extra\n\nPage \(step).\n".utf8)
            .write(to: folder.appendingPathComponent("extra-\(step).md"))
        return "add page extra-\(step).md"
    }

    /// Appends `text` to the template (or, with `../`, project file) `name`, creating it.
    private func append(_ name: String, _ text: String) throws -> String {
        let url = templateFolder.appendingPathComponent(name)
        let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((old + text).utf8).write(to: url)
        return "append to \(name)"
    }
}
