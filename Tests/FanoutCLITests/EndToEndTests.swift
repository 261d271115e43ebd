import Foundation
import Testing

/// Whole runs of the `fanout` binary on export files, checked the way a user would look at the output.
@Suite struct EndToEndTests {
    static func dataPosts(_ html: String) -> [String] {
        html.matches(of: /data-post="([^"]*)"/).map { String($0.output.1) }
    }

    @Test func consistentGeneratedExportMatchesAnIndependentComputation() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "300", "--seed", "7", "--out", "export.json").code == 0)
        let oracle = try DerivedDataOracle(exportAt: cli.url("export.json"))

        let check = try cli.run("check", "export.json")
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("0 errors, 0 warnings"))

        #expect(try cli.run("export", "export.json", "--out", "snap").code == 0)
        let snapshotText = try cli.read("snap/snapshot.json")
        let snapshot = try JSONSerialization.jsonObject(with: Data(snapshotText.utf8)) as! [String: Any]
        let timelines = snapshot["timelines"] as! [String: [String]]
        #expect(timelines == oracle.timelines)
        let posts = snapshot["posts"] as! [String: [String: Any]]
        #expect(posts.count == oracle.likeCounts.count)
        for (key, post) in posts {
            #expect(post["like_count"] as? Int == oracle.likeCounts[key], "like count of \(key)")
            #expect(post["likers"] as? [String] == oracle.likers[key], "likers of \(key)")
        }
        // Byte-identical across runs.
        #expect(try cli.run("export", "export.json", "--out", "snap2").code == 0)
        #expect(try cli.read("snap2/snapshot.json") == snapshotText)

        // A small page size, so long timelines span several pages that must add up to the whole timeline.
        let perPage = 7
        let build = try cli.run("build", "export.json", "--out", "site", "--per-page", "\(perPage)")
        #expect(build.code == 0, "\(build.stderr)")
        let pages = try TimelinePages(cli, site: "site")
        #expect(pages.posts == oracle.timelines, "the pages of each timeline show the timeline in order")
        let longest = try #require(oracle.timelines.values.map(\.count).max())
        #expect(longest > 2 * perPage, "the longest timeline spans several pages")
        for (uid, files) in pages.files {
            let timeline = oracle.timelines[uid]!
            #expect(files.count == max(1, (timeline.count + perPage - 1) / perPage), "pages of \(uid)")
            for (n, file) in files.enumerated() {
                let html = try cli.read("site/\(file)")
                #expect(Self.dataPosts(html).count <= perPage, "\(file) holds at most a page")
                // Previous/next links chain the pages together.
                #expect(
                    html.contains("rel=\"prev\"") == (n > 0) && html.contains("rel=\"next\"") == (n < files.count - 1),
                    "\(file) links its neighbours")
                let twin = String(file.dropLast("html".count)) + "md"
                #expect(cli.exists("site/\(twin)"), "Markdown twin of \(file)")
            }
            // The twins escape Markdown punctuation (`\_`); unescaped and read in page order, they name every
            // post in timeline order.
            let markdown = try files.map { file -> String in
                try cli.read("site/\(file.dropLast("html".count))md").replacing(/\\([!-\/:-@\[-`{-~])/) {
                    String($0.output.1)
                }
            }.joined(separator: "\n")
            let positions = timeline.map { markdown.range(of: "post \($0)")?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "twins of \(uid) list every post")
            #expect(
                positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "twins of \(uid) keep the order")
        }
        #expect(Set(pages.posts.keys) == Set(oracle.timelines.keys), "every user has a timeline")
    }

    @Test func injectedDriftIsFoundAndFailsTheRun() throws {
        let cli = try CLI()
        #expect(
            try cli.run(
                "generate", "--users", "400", "--seed", "3", "--defects", "20", "--out", "drift.json",
                "--manifest", "defects.jsonl"
            ).code == 0)
        let result = try cli.run("check", "drift.json", "--format", "json")
        #expect(result.code == 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["version"] as? Int == 1)
        let findings = report["findings"] as! [[String: Any]]
        let manifest = try cli.read("defects.jsonl").split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(manifest.count == 20)
        for defect in manifest {
            let kind = defect["kind"] as! String, paths = defect["paths"] as! [String]
            let found = findings.contains { finding in
                finding["rule"] as? String == kind
                    && (finding["paths"] as! [String]).contains { path in
                        paths.contains { path.hasPrefix($0) || $0.hasPrefix(path) }
                    }
            }
            #expect(found, "defect \(kind) at \(paths) is reported")
        }
    }

    @Test func demoSiteBuildsWithReportAndPages() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content")
        let build = try cli.run(
            "build", demo.appendingPathComponent("demo-export.json").path, "--out", "site",
            "--content", demo.path)
        #expect(build.code == 0, "\(build.stderr)")
        for page in ["index.html", "report.html", "report.md", "report.json", "about.html", "style.css"] {
            #expect(cli.exists("site/\(page)"), "\(page)")
        }
        let report = try cli.read("site/report.html")
        for rule in [
            "like-count-mismatch", "like-unknown-user", "poster-copy-stale", "follow-mirror-missing",
            "timeline-missing", "timeline-stale", "timeline-poster",
        ] {
            #expect(report.contains("id=\"rule-\(rule)\""), "\(rule)")
        }
        #expect(report.contains("posts/uidCarol0000000000000000000/-Kfn5tULx2kQ9zPq2Lm7/like_count"))
        let index = try cli.read("site/index.html")
        #expect(index.contains("Fanout demo site"), "Content/index.md introduces the home page")
        #expect(!index.contains("data-timeline"))
        // Relative links only: every href/src that is not http(s) resolves to a file of the site.
        for file in cli.files(under: "site") where file.hasSuffix(".html") {
            let html = try cli.read("site/\(file)")
            let base = cli.url("site/\(file)").deletingLastPathComponent()
            for match in html.matches(of: /(?:href|src)="([^"#]+)"/) {
                let link = String(match.output.1)
                if link.hasPrefix("http://") || link.hasPrefix("https://") { continue }
                #expect(!link.hasPrefix("/"), "\(file) links \(link) absolutely")
                let target = base.appendingPathComponent(link.removingPercentEncoding ?? link).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(file) links to missing \(link)")
            }
        }
    }

    @Test func checkExitCodesFollowFailOnAndRuleSettings() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let plain = try cli.run("check", demo)
        #expect(plain.code == 1)
        #expect(plain.stdout.contains("5 errors, 2 warnings, 0 info"))
        #expect(try cli.run("check", demo, "--fail-on", "never").code == 0)
        let errorsOff = [
            "like-count-mismatch", "like-unknown-user", "follow-mirror-missing", "timeline-missing",
            "timeline-poster",
        ].flatMap { ["--rule", "\($0)=off"] }
        let args = ["check", demo] + errorsOff
        #expect(try run(cli, args).code == 0)
        #expect(try run(cli, args + ["--fail-on", "warning"]).code == 1)
        #expect(
            try run(
                cli,
                ["check", demo, "--rule", "timeline-stale=error", "--rule", "poster-copy-stale=error"]
                    + errorsOff
            ).code == 1)
    }

    func run(_ cli: CLI, _ args: [String]) throws -> CLI.Result { try cli.run(args) }

    @Test func standardInputGivesTheSameReportAsTheFile() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json")
        let fromFile = try cli.run("check", demo.path, "--format", "json")
        let fromStdin = try cli.run("check", "-", "--format", "json", stdin: try Data(contentsOf: demo))
        #expect(fromStdin.code == 1)
        // The same findings at the same lines; standard input's locations name it `stdin`.
        #expect(fromStdin.stdout.contains("\"file\": \"stdin\""))
        #expect(
            fromStdin.stdout.replacingOccurrences(of: "\"stdin\"", with: "\"-\"")
                == fromFile.stdout.replacingOccurrences(of: "\"\(demo.path)\"", with: "\"-\""))
    }
}
