import Foundation
import Testing

/// A second build into the same folder rewrites only pages whose content changed.
@Suite struct IncrementalBuildTests {
    func written(_ result: CLI.Result) -> Set<String> {
        Set(result.stderr.split(separator: "\n").compactMap { line in
            line.hasPrefix("  wrote ") ? String(line.dropFirst("  wrote ".count)) : nil
        })
    }

    @Test func unchangedExportWritesNothingAndOneMovedLikeRewritesOnlyItsPages() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "120", "--seed", "5", "--out", "export.json").code == 0)
        let first = try cli.run("build", "export.json", "--out", "site", "-v")
        #expect(first.code == 0)
        let all = written(first)
        #expect(all.count > 300)

        let second = try cli.run("build", "export.json", "--out", "site", "-v")
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

        let third = try cli.run("build", "export.json", "--out", "site", "-v")
        #expect(third.code == 0)
        let changed = written(third)

        // The pages that show P: its post page, and the timeline (HTML, Markdown) and profile pages of users
        // whose timeline holds P. Map uids to their folders through the pages' data-timeline hooks.
        var folderOf: [String: String] = [:]
        for file in cli.files(under: "site") where file.hasSuffix("/index.html") {
            if let uid = try cli.read("site/\(file)").firstMatch(of: /data-timeline="([^"]*)"/)?.output.1 {
                folderOf[String(uid)] = String(file.dropLast("/index.html".count))
            }
        }
        let postPage = cli.files(under: "site").first { file in
            file.hasPrefix("posts/") && ((try? cli.read("site/\(file)")) ?? "").contains("data-post=\"\(post)\"")
        }!
        var showing: Set<String> = [postPage]
        for (uid, timeline) in oracle.timelines where timeline.contains(post) {
            let folder = folderOf[uid]!
            showing.formUnion(["\(folder)/index.html", "\(folder)/index.md", "\(folder)/profile.html"])
        }
        #expect(changed.contains(postPage), "the post page lists the likers")
        #expect(changed.isSubset(of: showing), "rewrote pages that do not show the post: \(changed.subtracting(showing))")
        for liker in [a, b] where oracle.timelines[liker]!.contains(post) {
            #expect(changed.contains("\(folderOf[liker]!)/index.html"), "the heart of \(liker) changed")
        }
        #expect(!changed.contains("index.html") && !changed.contains("report.json"))
    }
}
