import Foundation
import Testing

/// A second build into the same folder rewrites only pages whose content changed.
@Suite struct IncrementalBuildTests {
    func written(_ result: CLI.Result) -> Set<String> {
        Set(result.stderr.split(separator: "\n").compactMap { line in
            line.hasPrefix("  wrote ") ? String(line.dropFirst("  wrote ".count)) : nil
        })
    }

    /// The summary's count agrees in number: "wrote 1 file", not "wrote 1 files".
    @Test func summarySaysOneFileInTheSingular() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(try cli.run("build", demo, "--out", "site", "--pages", "index").code == 0)
        let retitled = try cli.run("build", demo, "--out", "site", "--pages", "index", "--title", "Another title")
        // index.html is rewritten; the assets, style.css and search.js, are not.
        #expect(retitled.stderr.hasPrefix("site/: wrote 1 file, 2 unchanged — "), "\(retitled.stderr)")
    }

    @Test func unchangedExportWritesNothingAndOneMovedLikeRewritesOnlyItsPages() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "120", "--seed", "5", "--out", "export.json").code == 0)
        let first = try cli.run(["build", "export.json", "--out", "site", "-v", "--per-page", "5"], in: ".")
        #expect(first.code == 0)
        let all = written(first)
        #expect(all.count > 300)

        let second = try cli.run(["build", "export.json", "--out", "site", "-v", "--per-page", "5"], in: ".")
        #expect(second.code == 0 && written(second).isEmpty, "\(written(second))")
        #expect(second.stderr.contains("wrote 0 files, \(all.count) unchanged"))

        // Move one like from A to B on a post P (same count), so only pages showing P can change.
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var likes = root["postLikes"] as! [String: [String: Bool]]
        let users = (root["users"] as! [String: Any]).keys.sorted()
        let (post, likers) = likes.sorted { $0.key < $1.key }.first { $0.value.count >= 2 && $0.value.count < users.count }!
        let a = likers.keys.sorted()[0]
        let b = users.first { likers[$0] == nil }!
        var moved = likers
        moved[a] = nil
        moved[b] = true
        likes[post] = moved
        root["postLikes"] = likes
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
        let oracle = try Oracle(exportAt: cli.url("export.json"))

        let third = try cli.run(["build", "export.json", "--out", "site", "-v", "--per-page", "5"], in: ".")
        #expect(third.code == 0)
        let changed = written(third)

        // The pages that show P: its post page, the timeline page (and its Markdown twin) that holds P in the
        // timeline of each user whose timeline has P, and the profile page of P's owner that lists it. Timeline
        // pages are found through their data-timeline hooks, read page by page.
        let timelines = try TimelinePages(cli, site: "site")
        var pageWithPost: [String: String] = [:]
        for (uid, files) in timelines.files {
            for file in files where try EndToEndTests.dataPosts(cli.read("site/\(file)")).contains(post) {
                pageWithPost[uid] = file
            }
        }
        let postPage = cli.files(under: "site").first { file in
            file.hasPrefix("posts/") && ((try? cli.read("site/\(file)")) ?? "").contains("data-post=\"\(post)\"")
        }!
        let profilePages = cli.files(under: "site").filter { file in
            file.hasPrefix("users/") && (file as NSString).lastPathComponent.hasPrefix("profile")
                && EndToEndTests.dataPosts((try? cli.read("site/\(file)")) ?? "").contains(post)
        }
        #expect(profilePages.count == 1, "one profile page lists the post")
        var showing = Set([postPage] + profilePages)
        for (uid, timeline) in oracle.timelines where timeline.contains(post) {
            let page = try #require(pageWithPost[uid], "a page of \(uid)'s timeline shows the post")
            showing.formUnion([page, String(page.dropLast("html".count)) + "md"])
        }
        #expect(changed.contains(postPage), "the post page lists the likers")
        #expect(changed.isSubset(of: showing), "rewrote pages that do not show the post: \(changed.subtracting(showing))")
        for liker in [a, b] where oracle.timelines[liker]!.contains(post) {
            #expect(changed.contains(pageWithPost[liker]!), "the heart of \(liker) changed")
        }
        #expect(!changed.contains("index.html") && !changed.contains("report.json") && !changed.contains("sitemap.xml"))
    }
}
