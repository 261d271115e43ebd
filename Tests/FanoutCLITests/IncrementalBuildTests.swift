import Foundation
import Testing

/// A rebuild renders only the pages whose input changed, writes only those whose content changed, and says so
/// (docs/site.md "Rebuilds, progress and timings").
@Suite struct IncrementalBuildTests {
    func written(_ result: CLI.Result) -> Set<String> { listed("wrote", result) }

    func listed(_ verb: String, _ result: CLI.Result) -> Set<String> {
        Set(
            result.stderr.split(separator: "\n").compactMap { line in
                line.hasPrefix("  \(verb) ") ? String(line.dropFirst(verb.count + 3)) : nil
            })
    }

    /// The summary's counts agree in number: "1 page rendered", not "1 pages".
    @Test func summarySaysOnePageInTheSingular() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(try cli.run("build", demo, "--out", "site", "--pages", "index").code == 0)
        let retitled = try cli.run("build", demo, "--out", "site", "--pages", "index", "--title", "Another title")
        // index.html is rendered again; the assets, style.css and search.js, are carried over.
        #expect(
            retitled.stderr.hasPrefix("site/: 1 page rendered (1 written, 0 unchanged), 2 carried over, 0 deleted — "),
            "\(retitled.stderr)")
    }

    /// `FANOUT_PAGE_TIMES=FILE` lists how long each page rendered took, one `seconds<TAB>path` line a page, for
    /// `bench/rebuild` to compare a rebuild's pages with the same pages of a full build (docs/performance.md
    /// "Rebuilds"): every page of a first build, none of a rebuild with nothing changed.
    @Test func pageTimesListTheRenderedPages() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "12", "--seed", "2", "--out", "export.json").code == 0)
        let times = cli.url("times.tsv").path
        func listed() throws -> [(seconds: Double, path: String)] {
            try String(contentsOfFile: times, encoding: .utf8).split(separator: "\n").map { line in
                let fields = line.split(separator: "\t")
                return (try #require(Double(String(fields[0]))), String(fields[1]))
            }
        }
        let first = try cli.run(
            ["build", "export.json", "--out", "site", "--per-page", "3"], environment: ["FANOUT_PAGE_TIMES": times])
        #expect(first.code == 0, "\(first.stderr)")
        let files = cli.files(under: "site").filter { !$0.hasPrefix(".") }
        let pages = try listed()
        #expect(Set(pages.map(\.path)) == Set(files) && pages.count == files.count)
        #expect(pages.allSatisfy { $0.seconds > 0 && $0.seconds < 60 })
        let again = try cli.run(
            ["build", "export.json", "--out", "site", "--per-page", "3"], environment: ["FANOUT_PAGE_TIMES": times])
        #expect(again.code == 0 && again.stderr.contains(" 0 pages rendered"), "\(again.stderr)")
        #expect(try listed().isEmpty)
    }

    /// `-v` names each file written and deleted and times the phases; `--force` renders everything again, and a
    /// page deleted by hand is rendered again without it.
    @Test func verboseForceAndDeletions() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "30", "--seed", "4", "--out", "export.json").code == 0)
        let first = try cli.run("build", "export.json", "--out", "site", "-v", "--per-page", "2")
        #expect(first.code == 0)
        let files = cli.files(under: "site").filter { !$0.hasPrefix(".") }
        #expect(written(first) == Set(files), "a first build writes every file")
        let times = try #require(first.stderr.split(separator: "\n").first { $0.hasPrefix("  time: ") })
        for phase in [
            "read", "derive", "check", "prepare", "manifest", "decide", "pages", "keys", "values", "templates", "files",
            "commit",
        ] {
            #expect(times.contains(" \(phase) ") || times.contains("(\(phase) "), "\(times)")
        }
        // The render phase by kind of page: every page rendered counted once, under its kind.
        let kinds = try #require(first.stderr.split(separator: "\n").first { $0.hasPrefix("  pages by kind: ") })
        let counted = try Regex(#"([a-z][a-z.-]*) ([0-9,]+) pages? in [0-9.]+ s \([0-9.]+ ms a page\)"#)
        var perKind: [String: Int] = [:]
        for match in kinds.matches(of: counted) {
            let (kind, count) = (match.output[1].substring!, match.output[2].substring!.filter(\.isNumber))
            perKind[String(kind), default: 0] += Int(count)!
        }
        #expect(perKind.values.reduce(0, +) == files.count, "\(kinds)")
        let timelinePages = files.filter {
            $0.hasPrefix("users/") && ($0.hasSuffix("/index.html") || $0.contains("/page-") && $0.hasSuffix(".html"))
        }
        #expect(perKind["timeline"] == timelinePages.count, "\(kinds)")

        let forced = try cli.run("build", "export.json", "--out", "site", "--per-page", "2", "--force")
        #expect(
            forced.stderr.hasPrefix(
                "site/: \(CountTextForTests.grouped(files.count)) pages rendered "
                    + "(\(CountTextForTests.grouped(files.count)) written, 0 unchanged), 0 carried over, 0 deleted"),
            "\(forced.stderr)")

        // A page deleted by hand comes back; nothing else is rendered.
        let victim = try #require(files.first { $0.hasPrefix("posts/") })
        try FileManager.default.removeItem(at: cli.url("site/\(victim)"))
        let restored = try cli.run("build", "export.json", "--out", "site", "--per-page", "2", "-v")
        #expect(written(restored) == [victim], "\(restored.stderr.prefix(400))")
        #expect(cli.exists("site/\(victim)"))

        // The carried files are found by one walk of the folder (docs/performance.md "Rebuilds"):
        // a folder deleted by hand brings all its pages back; a file it sees as a link is looked at by its path,
        // kept when the link leads to a file and rendered again when it leads nowhere; a top-level file deleted
        // comes back.
        let user = try #require(files.first { $0.hasPrefix("users/") && $0.hasSuffix("/index.html") })
        let folder = String(user.dropLast("index.html".count))
        let inFolder = Set(files.filter { $0.hasPrefix(folder) })
        try FileManager.default.removeItem(at: cli.url("site/\(folder)"))
        let linked = try #require(files.first { $0.hasPrefix("posts/") && $0 != victim })
        let dangling = try #require(files.last { $0.hasPrefix("posts/") && $0 != victim && $0 != linked })
        try FileManager.default.moveItem(at: cli.url("site/\(linked)"), to: cli.url("linked-copy"))
        try FileManager.default.createSymbolicLink(
            atPath: cli.url("site/\(linked)").path, withDestinationPath: cli.url("linked-copy").path)
        try FileManager.default.removeItem(at: cli.url("site/\(dangling)"))
        try FileManager.default.createSymbolicLink(
            atPath: cli.url("site/\(dangling)").path, withDestinationPath: cli.url("nowhere").path)
        try FileManager.default.removeItem(at: cli.url("site/style.css"))
        let walked = try cli.run("build", "export.json", "--out", "site", "--per-page", "2", "-v")
        #expect(written(walked) == inFolder.union([dangling, "style.css"]), "\(walked.stderr.prefix(600))")
        #expect(inFolder.allSatisfy { cli.exists("site/\($0)") } && cli.exists("site/style.css"))
        #expect(!written(walked).contains(linked), "a link to a file counts as the file, as `faccessat` says")
        try FileManager.default.removeItem(at: cli.url("site/\(linked)"))
        try FileManager.default.moveItem(at: cli.url("linked-copy"), to: cli.url("site/\(linked)"))

        // Fewer pages: the ones gone are deleted, with the folders they leave empty.
        let fewer = try cli.run("build", "export.json", "--out", "site", "--per-page", "1000", "-v")
        let deleted = listed("deleted", fewer)
        #expect(
            !deleted.isEmpty
                && deleted.allSatisfy { file in
                    ["page-", "profile-", "liked-"].contains { file.contains($0) } || file.hasPrefix("page/")
                })
        #expect(deleted.allSatisfy { !cli.exists("site/\($0)") })
        #expect(!cli.exists("site/page"), "the index's page folders are gone with their pages")
        try? FileManager.default.removeItem(at: cli.url("full"))
        #expect(try cli.run("build", "export.json", "--out", "full", "--per-page", "1000").code == 0)
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "full").isEmpty)
    }

    /// A rebuild killed outright while it moves files into place leaves some new and some old; the next build
    /// renders every page the killed one was changing, so the folder ends as a full build's — also when the next
    /// build is of the export as it was before (`reverted`), whose keys the moved files' old pages had.
    @Test(arguments: [0, 1, 3, 40], [false, true])
    func aRebuildKilledWhileMovingFilesIsRepairedByTheNext(afterSteps: Int, reverted: Bool) throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "30", "--seed", "9", "--out", "export.json").code == 0)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "3").code == 0)
        let original = try Data(contentsOf: cli.url("export.json"))
        // Every page naming this user changes.
        var root = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        var users = root["users"] as! [String: [String: Any]]
        let renamed = users.keys.sorted()[0]
        users[renamed]!["username"] = "someone_else"
        root["users"] = users
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
        let killed = try cli.run(
            ["build", "export.json", "--out", "site", "--per-page", "3"],
            environment: ["FANOUT_TEST_KILL_AFTER_STEPS": "\(afterSteps)"])
        #expect(killed.code == 9, "killed by SIGKILL: \(killed.stderr)")
        if reverted { try original.write(to: cli.url("export.json")) }
        let next = try cli.run("build", "export.json", "--out", "site", "--per-page", "3")
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try cli.run("build", "export.json", "--out", "full", "--per-page", "3").code == 0)
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "full").isEmpty)
        let leftovers = try ["", ".fanout-cache/"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: cli.url(folder).path).filter {
                $0.contains("fanout-") && $0 != ".fanout-cache" && !$0.hasSuffix(".fanout-output")
            }
        }
        #expect(leftovers.isEmpty, "the killed run's temporary folders are swept: \(leftovers)")
    }

    /// A rebuild killed outright after it moved in the page of a new post leaves it listed as one it was changing
    /// (``SiteOutput/changingName``); when the next build's export has no such post, it deletes the page, which
    /// no manifest names, so the folder ends as a full build's.
    @Test func aNewPageOfARebuildKilledMidwayIsDeletedWhenTheNextBuildLacksIt() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "30", "--seed", "9", "--out", "export.json").code == 0)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "3").code == 0)
        #expect(try cli.run("build", "export.json", "--out", "trial", "--per-page", "3").code == 0)
        let original = try Data(contentsOf: cli.url("export.json"))
        var root = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        let poster = (root["users"] as! [String: Any]).keys.sorted()[0]
        root = FirebasePatch.apply(
            [
                "posts/\(poster)/zznewpost": ["caption": "new", "created_at": 1, "poster": ["uid": poster]]
                    as [String: Any]
            ],
            to: root)
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
        // The rebuild's steps: the list of the files it changes written into the cache, then those files moved in,
        // then the cache's manifest. The same rebuild of a twin built alike says how many files it writes, so the
        // killed one stops right after the last.
        let trial = written(try cli.run("build", "export.json", "--out", "trial", "--per-page", "3", "-v"))
        #expect(trial.contains("posts/zznewpost.html"), "\(trial)")
        let killed = try cli.run(
            ["build", "export.json", "--out", "site", "--per-page", "3"],
            environment: ["FANOUT_TEST_KILL_AFTER_STEPS": "\(trial.count)"])
        #expect(killed.code == 9, "killed by SIGKILL: \(killed.stderr)")
        let changing = CLI.cache(of: "site") + "/manifest-changing"
        #expect(cli.exists("site/posts/zznewpost.html") && cli.exists(changing))
        try original.write(to: cli.url("export.json"))
        let next = try cli.run("build", "export.json", "--out", "site", "--per-page", "3", "-v")
        #expect(next.code == 0, "\(next.stderr)")
        #expect(listed("deleted", next).contains("posts/zznewpost.html"), "\(next.stderr)")
        #expect(!cli.exists(changing))
        #expect(try cli.run("build", "export.json", "--out", "full", "--per-page", "3").code == 0)
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "full").isEmpty)
    }

    /// A rebuild killed while it deletes the pages it no longer makes (here, fewer pages per timeline) leaves
    /// the rest for the next build to delete; or, when the next build asks for them again (`reverted`), keeps
    /// those still there and renders those already gone.
    @Test(arguments: [1, 30, 200], [false, true])
    func aRebuildKilledWhileDeletingFilesIsFinishedByTheNext(afterSteps: Int, reverted: Bool) throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "30", "--seed", "9", "--out", "export.json").code == 0)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "3").code == 0)
        let killed = try cli.run(
            ["build", "export.json", "--out", "site", "--per-page", "50"],
            environment: ["FANOUT_TEST_KILL_AFTER_STEPS": "\(afterSteps)"])
        #expect(killed.code == 9, "killed by SIGKILL: \(killed.stderr)")
        let perPage = reverted ? "3" : "50"
        let next = try cli.run("build", "export.json", "--out", "site", "--per-page", perPage)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try cli.run("build", "export.json", "--out", "full", "--per-page", perPage).code == 0)
        #expect(try IncrementalBuildPropertyTests.differences(cli, "site", "full").isEmpty)
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
        #expect(
            second.stderr.contains(
                "0 pages rendered (0 written, 0 unchanged), \(CountTextForTests.grouped(all.count)) carried over"))

        // Move one like from A to B on a post P (same count), so only pages showing P can change.
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        var likes = root["postLikes"] as! [String: [String: Bool]]
        let users = (root["users"] as! [String: Any]).keys.sorted()
        let (post, likers) = likes.sorted { $0.key < $1.key }.first {
            $0.value.count >= 2 && $0.value.count < users.count
        }!
        let a = likers.keys.sorted()[0]
        let b = users.first { likers[$0] == nil }!
        var moved = likers
        moved[a] = nil
        moved[b] = true
        likes[post] = moved
        root["postLikes"] = likes
        try JSONSerialization.data(withJSONObject: root).write(to: cli.url("export.json"))
        let oracle = try DerivedDataOracle(exportAt: cli.url("export.json"))

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
        // The pages of the posts a user liked (and their twins): every one of A's and B's, whose likes changed, and
        // the others' that show P.
        let liked = cli.files(under: "site").filter { ($0 as NSString).lastPathComponent.hasPrefix("liked") }
        let folders = try [a, b].map {
            try #require(timelines.files[$0]?.first.map { ($0 as NSString).deletingLastPathComponent + "/" })
        }
        let likersPages = liked.filter { file in folders.contains { file.hasPrefix($0) } }
        showing.formUnion(likersPages)
        for file in liked
        where file.hasSuffix(".html") && EndToEndTests.dataPosts((try? cli.read("site/\(file)")) ?? "").contains(post) {
            showing.formUnion([file, String(file.dropLast("html".count)) + "md"])
        }
        #expect(changed.contains(postPage), "the post page lists the likers")
        #expect(
            changed.isSubset(of: showing), "rewrote pages that do not show the post: \(changed.subtracting(showing))")
        for liker in [a, b] where oracle.timelines[liker]!.contains(post) {
            #expect(changed.contains(pageWithPost[liker]!), "the heart of \(liker) changed")
        }
        #expect(Set(likersPages).isSubset(of: changed), "A's and B's liked pages each say how many posts they liked")
        #expect(!changed.contains("index.html") && !changed.contains("report.json") && !changed.contains("sitemap.xml"))
    }
}

extension IncrementalBuildTests {
    /// Builds `export.json` into `site` again, incrementally and verbosely, after `edit`, and checks that the folder
    /// is what a clean build into `full` writes, byte for byte; returns the incremental build's result.
    func rebuildAndCompare(_ cli: CLI, after edit: String, _ arguments: [String]) throws -> CLI.Result {
        let incremental = try cli.run(["build", "export.json", "--out", "site", "-v"] + arguments)
        #expect(incremental.code == 0, "\(edit): \(incremental.stderr)")
        try? FileManager.default.removeItem(at: cli.url("full"))
        #expect(try cli.run(["build", "export.json", "--out", "full"] + arguments).code == 0)
        let differences = try IncrementalBuildPropertyTests.differences(cli, "site", "full")
        #expect(differences.isEmpty, "after \(edit): \(differences.prefix(8))")
        return incremental
    }

    /// Comments reach exactly the pages that show them (docs/site.md), on FriendlyPix's export: a comment's
    /// text edited renders its post's page alone; a comment added or removed, also the pages showing the post's
    /// card, which counts them; a commenter renamed or deleted, their comments' pages. After each edit the folder
    /// equals a clean build's, byte for byte.
    @Test func commentEditsRenderThePagesShowingThem() throws {
        let cli = try CLI()
        let fixture = CLI.repository.appendingPathComponent("Tests/Fixtures/friendlypix-initial_db.json")
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as! [String: Any]
        func save() throws {
            try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: cli.url("export.json"))
        }
        let arguments = ["--per-page", "5"]
        try save()
        #expect(try cli.run(["build", "export.json", "--out", "site"] + arguments).code == 0)

        /// Applies `patch`, rebuilds incrementally, checks the folder against a clean build, and returns the files
        /// written and the build's summary.
        func rebuild(_ edit: String, _ patch: [String: Any]) throws -> (written: Set<String>, summary: String) {
            root = FirebasePatch.apply(patch, to: root)
            try save()
            let incremental = try rebuildAndCompare(cli, after: edit, arguments)
            return (written(incremental), String(incremental.stderr.prefix { $0 != "\n" }))
        }
        /// The post page of `key`, and every page showing its card (Markdown twins included).
        func pages(showing key: String) throws -> (post: String, all: Set<String>) {
            var all = Set<String>(), post: String?
            for file in cli.files(under: "site") where file.hasSuffix(".html") {
                guard try EndToEndTests.dataPosts(cli.read("site/\(file)")).contains(key) else { continue }
                all.insert(file)
                if file.hasPrefix("posts/") { post = file }
                // A timeline's or liked page's Markdown twin shows the card too.
                let twin = String(file.dropLast("html".count)) + "md"
                if file.hasPrefix("users/"), cli.exists("site/\(twin)") { all.insert(twin) }
            }
            return (try #require(post), all)
        }

        let (post, commenter) = ("-K9euzjFOpEFYT5lUZrh", "02058228393103150263EFC1C410704ED556001C9F77")  // 8 comments
        let (page, showing) = try pages(showing: post)
        #expect(showing.count > 3)

        let edited = try rebuild("a comment's text edited", ["comments/\(post)/-K9hcqlMcxoK2e2MDk94/text": "*edited*"])
        #expect(
            edited.written == [page] && edited.summary.hasPrefix("site/: 1 page rendered (1 written, 0 unchanged), "),
            "\(edited)")
        #expect(try cli.read("site/\(page)").contains("<p><em>edited</em></p>"))

        let quiet = "-K9gDb_A2fePL-F-mOni"  // no comments yet
        let (quietPage, quietShowing) = try pages(showing: quiet)
        let added = try rebuild(
            "a comment added",
            [
                "comments/\(quiet)/-KzAdded0000000000a": [
                    "author": commenter, "text": "new", "timestamp": 1_460_000_000_000,
                ] as [String: Any]
            ])
        #expect(
            added.written.contains(quietPage) && added.written.isSubset(of: quietShowing) && added.written.count > 2,
            "\(added)")
        #expect(try cli.read("site/\(quietPage)").contains("<p class=\"meta\">1 comment</p>"))

        let renamed = try rebuild("a commenter renamed", ["people/\(commenter)/displayName": "Renamed commenter"])
        #expect(renamed.written.isSuperset(of: [page, quietPage]), "\(renamed)")
        #expect(try cli.read("site/\(page)").contains(">Renamed commenter</bdi></a> · <time"))

        let removed = try rebuild("a comment removed", ["comments/\(post)/-KByG0IoIRoWOe_jp6Hi": NSNull()])
        #expect(removed.written == showing, "the post's page and every page counting its comments: \(removed)")
        #expect(try cli.read("site/\(page)").contains("<p class=\"meta\">7 comments</p>"))

        // Their account deleted, the commenter's comments are no longer shown (docs/derived-data.md).
        _ = try rebuild("a commenter deleted", ["people/\(commenter)": NSNull()])
        #expect(try cli.read("site/\(page)").contains("<p class=\"meta\">3 comments</p>"))
    }
}

/// Counts as the status line groups them ("1,234").
enum CountTextForTests {
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        return digits.enumerated().map { i, digit in (i > 0 && (digits.count - i) % 3 == 0 ? "," : "") + String(digit) }
            .joined()
    }
}
