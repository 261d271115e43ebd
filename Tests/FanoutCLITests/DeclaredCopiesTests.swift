import Foundation
import Testing

/// Counters, mirrors, copies and references declared in schema files, and comments (docs/layouts.md "Declaring your
/// app's copies"), through the binary as a user runs it: every layout of `DeclaredFixtures` is clean as written, each
/// injected drift gives exactly its findings with their fixes, and the repair patch, applied by `JSONTree` (not by
/// Fanout), leaves nothing mechanical to find.
@Suite struct DeclaredCopiesTests {
    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// `check --format json` on `export` (a file name in `cli`) with `schema`: its exit code and findings.
    func check(_ cli: CLI, _ export: String, _ schema: String, _ extra: String...) throws -> (
        code: Int32, findings: [[String: Any]], report: [String: Any]
    ) {
        let result = try cli.run(
            ["check", export, "--schema", schema, "--format", "json", "--max-per-rule", "all"] + extra)
        #expect(result.code == 0 || result.code == 1, "\(result.stderr)")
        let report = try json(result.stdout)
        return (result.code, report["findings"] as! [[String: Any]], report)
    }

    @Test(arguments: DeclaredFixtures.all.map(\.name))
    func eachLayoutIsCleanAsWrittenAndEachDriftGivesItsFindings(_ name: String) throws {
        let layout = DeclaredFixtures.all.first { $0.name == name }!
        let cli = try CLI()
        let schema = try DeclaredFixtures.schema(layout, in: cli)
        try cli.write(try layout.export(), to: "clean.json")
        let clean = try check(cli, "clean.json", schema)
        // The real FriendlyPix export has drift of its own (its fan-out and post lists); the declared copies do not.
        let before = Set(clean.findings.map { "\($0["rule"]!) \(($0["paths"] as! [String])[0])" })
        if name != "friendlypix-comments" {
            #expect(clean.code == 0 && clean.findings.isEmpty, "\(clean.findings)")
        }
        let declared = (clean.report["summary"] as! [String: Any])["declared_rules"] as! [[String: Any]]
        let run = (clean.report["summary"] as! [String: Any])["rules_run"] as! [String]
        for rule in declared { #expect(run.contains(rule["id"] as! String), "\(rule["id"]!) did not run") }

        for drift in layout.drifts {
            var tree = try JSONTree(layout.export())
            drift.edit(&tree)
            try cli.write(tree.text, to: "drifted.json")
            let found = try check(cli, "drifted.json", schema).findings.filter {
                !before.contains("\($0["rule"]!) \(($0["paths"] as! [String])[0])")
            }
            let got = found.map { [$0["rule"] as! String, ($0["paths"] as! [String])[0]] }.sorted {
                $0.joined() < $1.joined()
            }
            #expect(got == drift.findings.sorted { $0.joined() < $1.joined() }, "\(name): \(drift.name): \(found)")
            for finding in found {
                let rule = finding["rule"] as! String
                // Every kind carries its fix, but a reference the schema does not mark deletable, and a copy of a
                // field its record lacks: the copy is the only place the value is left.
                let unfixable = layout.unfixable.contains(rule) || drift.isUnfixable
                #expect(
                    (finding["fix"] as! [String: Any]).isEmpty == unfixable, "\(name): \(drift.name): \(rule)'s fix")
                #expect(
                    !(finding["message"] as! String).contains(((finding["paths"] as! [String])[0])),
                    "the message repeats the path")
            }
        }
    }

    @Test(arguments: DeclaredFixtures.all.map(\.name))
    func theRepairPatchAppliedByAnotherApplierLeavesNoMechanicalFinding(_ name: String) throws {
        let layout = DeclaredFixtures.all.first { $0.name == name }!
        let cli = try CLI()
        let schema = try DeclaredFixtures.schema(layout, in: cli)
        try cli.write(try DeclaredFixtures.drifted(layout), to: "drifted.json")
        let drifted = try check(cli, "drifted.json", schema)
        #expect(drifted.code == 1)
        let result = try cli.run("export", "drifted.json", "--schema", schema, "--out", "out", "--repair")
        #expect(result.code == 0, "\(result.stderr)")
        var tree = try JSONTree(cli.read("drifted.json"))
        try tree.apply(patch: cli.read("out/repair.patch.json"))
        try cli.write(tree.text, to: "repaired.json")
        let after = try check(cli, "repaired.json", schema)
        let mechanical = Set(
            ((after.report["summary"] as! [String: Any])["declared_rules"] as! [[String: Any]])
                .filter { $0["mechanical"] as! Bool }.map { $0["id"] as! String })
        // A copy of a field its record lacks keeps its finding: its fix would delete the only copy of the value.
        let kept = Set(
            drifted.findings.filter { ($0["fix"] as! [String: Any]).isEmpty }.map {
                "\($0["rule"]!) \(($0["paths"] as! [String])[0])"
            })
        let left = after.findings.filter {
            (mechanical.contains($0["rule"] as! String) || ($0["rule"] as! String).hasPrefix("comment-"))
                && !kept.contains("\($0["rule"]!) \(($0["paths"] as! [String])[0])")
        }
        #expect(left.isEmpty, "\(name): \(left)")
        for (layout, value) in [("chirp", "cyd@example.com"), ("forum", "\"Introductions\"")] where name == layout {
            #expect(try cli.read("repaired.json").contains(value), "the repair deleted the only copies of \(value)")
        }
        // The declared kinds' fixes lose nothing: what they delete, and what copies and mirrors write, the export
        // holds elsewhere too (counters write the counted numbers).
        // (References the schema marks deletable delete their rows by the user's choice.)
        var kinds: [String: String] = [:]
        for rule in (drifted.report["summary"] as! [String: Any])["declared_rules"] as! [[String: Any]] {
            let explanation = rule["explanation"] as! String
            let kind = explanation.split(separator: "[[").dropFirst().first?.split(separator: "]]").first
            if !explanation.contains("marks the referring rows deletable") {
                kinds[rule["id"] as! String] = kind.map(String.init)
            }
        }
        let before = try JSONTree(cli.read("drifted.json"))
        for finding in drifted.findings where kinds[finding["rule"] as! String] != nil {
            for (path, value) in finding["fix"] as! [String: Any] {
                let elsewhere = Self.values(in: before.root, outside: path)
                if value is NSNull {
                    for lost in Self.values(in: before[path], outside: nil) where !elsewhere.contains(lost) {
                        Issue.record("\(name): \(finding["rule"]!)'s fix deletes \(path), the only place of \(lost)")
                    }
                } else if kinds[finding["rule"] as! String] != "counters", !(value is [String: Any]) {
                    #expect(
                        elsewhere.contains("\(value)") || value as? Bool == true,
                        "\(name): \(finding["rule"]!) writes \(value) at \(path), which the export has nowhere else")
                }
            }
        }
        // Fanout's own repaired export is the same data.
        #expect(try check(cli, "out/repaired.json", schema).findings.count == after.findings.count)
        if name != "friendlypix-comments" {
            let unfixed = layout.unfixable + layout.drifts.filter(\.isUnfixable).flatMap { $0.findings.map { $0[0] } }
            #expect(Set(after.findings.map { $0["rule"] as! String }) == Set(unfixed))
        }
    }

    /// Every key and scalar in `node` (as text), but those under `outside` (a path from the root).
    static func values(in node: Any?, outside: String?, at path: String = "") -> Set<String> {
        if let outside, path == outside { return [] }
        switch node {
        case let object as [String: Any]:
            return object.reduce(into: Set<String>()) { found, member in
                found.insert(member.key)
                found.formUnion(
                    values(in: member.value, outside: outside, at: path.isEmpty ? member.key : "\(path)/\(member.key)"))
            }
        case let array as [Any]:
            return array.enumerated().reduce(into: Set<String>()) { found, element in
                found.formUnion(values(in: element.element, outside: outside, at: "\(path)/\(element.offset)"))
            }
        case nil, is NSNull: return []
        case let value?: return ["\(value)"]
        }
    }

    /// The instaclone preset checks `user-posts` (u1's list holds u2's post, u2's lacks it).
    @Test func instacloneReportsUserPostsDrift() throws {
        let cli = try CLI()
        var tree = try JSONTree(Feed.sample.instaclone)
        let post = Feed.sample.posts[0], other = Feed.sample.users.first { $0.uid != post.owner }!.uid
        tree["user-posts/\(post.owner)/\(post.key)"] = nil
        tree["user-posts/\(other)/\(post.key)"] = 1
        try cli.write(tree.text, to: "insta.json")
        let result = try check(cli, "insta.json", "instaclone")
        let mirror = result.findings.filter { $0["rule"] as? String == "post-mirror-missing" }
        #expect(
            mirror.map { ($0["paths"] as! [String])[0] }.sorted()
                == ["user-posts/\(other)/\(post.key)", "user-posts/\(post.owner)/\(post.key)"].sorted())
        #expect(mirror.contains { ($0["fix"] as! [String: Any])["user-posts/\(post.owner)/\(post.key)"] as? Int == 1 })
    }

    /// Declared rules are rules like any other: re-graded and switched off on the command line and in
    /// fanout.toml, explained, hidden by baselines, misspellings answered with the nearest name.
    @Test func declaredRulesAreConfiguredExplainedAndBaselinedAsBuiltInOnes() throws {
        let cli = try CLI()
        let schema = try DeclaredFixtures.schema(DeclaredFixtures.chirp, in: cli)
        try cli.write(try DeclaredFixtures.drifted(DeclaredFixtures.chirp), to: "chirp.json")
        var result = try check(cli, "chirp.json", schema, "--rule", "tweet-count=info", "--rule", "timeline-text=off")
        #expect(result.findings.first { $0["rule"] as? String == "tweet-count" }?["severity"] as? String == "info")
        #expect(!result.findings.contains { $0["rule"] as? String == "timeline-text" })
        let skipped = (result.report["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]
        #expect(skipped.contains(["rule": "timeline-text", "reason": "switched off by configuration"]))

        try cli.write(
            "export = \"chirp.json\"\nschema = \"\(schema)\"\n\n[rules]\nfollower-count = \"warning\"\n",
            to: "fanout.toml")
        result = try check(cli, "chirp.json", schema)
        #expect(
            result.findings.first { $0["rule"] as? String == "follower-count" }?["severity"] as? String == "warning")
        try cli.write("schema = \"\(schema)\"\n[rules]\nfollower-cuont = \"off\"\n", to: "fanout.toml")
        var bad = try cli.run("check", "chirp.json")
        #expect(bad.code == 2)
        #expect(
            bad.stderr.contains(
                "fanout.toml:3: [rules] follower-cuont: unknown rule \"follower-cuont\" (did you mean \"follower-count\"?)"
            ), "\(bad.stderr)")
        try FileManager.default.removeItem(at: cli.url("fanout.toml"))

        bad = try cli.run("check", "chirp.json", "--schema", schema, "--rule", "tweet-cont=off")
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("unknown rule \"tweet-cont\" (did you mean \"tweet-count\"?)"), "\(bad.stderr)")

        let explained = try cli.run("check", "--explain", "tweet-count", "--schema", schema)
        #expect(explained.code == 0, "\(explained.stderr)")
        #expect(
            explained.stdout.hasPrefix(
                "tweet-count (default severity: error)\n\n`users/{poster}/tweetCount` equals the number of posts of each poster."
            ), "\(explained.stdout)")
        #expect(explained.stdout.contains("Fix: mechanical"))

        #expect(try cli.run("check", "chirp.json", "--schema", schema, "--write-baseline", "known.json").code == 0)
        let hidden = try check(cli, "chirp.json", schema, "--baseline", "known.json")
        #expect(hidden.code == 0 && hidden.findings.isEmpty)
    }

    /// Every report format carries declared rules: SARIF describes them, and `fanout report` renders check's JSON
    /// report into each format byte for byte as check does.
    @Test func everyReportFormatCarriesDeclaredRules() throws {
        let cli = try CLI()
        let schema = try DeclaredFixtures.schema(DeclaredFixtures.chirp, in: cli)
        try cli.write(try DeclaredFixtures.drifted(DeclaredFixtures.chirp), to: "chirp.json")
        #expect(
            try cli.run("check", "chirp.json", "--schema", schema, "--format", "json", "--output", "report.json").code
                == 1)
        for format in ["text", "markdown", "html", "junit", "sarif", "github"] {
            let checked = try cli.run(
                "check", "chirp.json", "--schema", schema, "--format", format, "--output", "check.\(format)")
            let rendered = try cli.run(
                "report", "report.json", "--export", "chirp.json", "--format", format, "--output", "report.\(format)")
            #expect(checked.code == 1 && rendered.code == 1, "\(format): \(rendered.stderr)")
            #expect(try cli.read("report.\(format)") == cli.read("check.\(format)"), "\(format) differs")
        }
        let sarif = try json(cli.read("check.sarif"))
        let rules =
            (((sarif["runs"] as! [[String: Any]])[0]["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"]
            as! [[String: Any]]
        let tweetCount = try #require(rules.first { $0["id"] as? String == "tweet-count" })
        #expect(
            (tweetCount["shortDescription"] as! [String: Any])["text"] as? String
                == "`users/{poster}/tweetCount` equals the number of posts of each poster.")
        #expect(try cli.read("check.junit").contains("tweet-count"))
        #expect(try cli.read("check.html").contains("timeline-author-email"))
    }

    /// Mistakes in declarations: exit 2, one message naming the file, the line and the key, with the choices.
    @Test(arguments: [
        (
            "[[counters]]\nname = \"c\"\nat = \"users/{poster}/n\"\ncounts = \"tweets\"\nper = \"poster\"\n",
            "line 12: counters[1].counts: \"tweets\" is not a relation; counts takes users, posts, likes, follows, comments, timeline, flags"
        ),
        (
            "[[counters]]\nname = \"c\"\nat = \"users/{user}/n\"\ncounts = \"posts\"\nper = \"poster\"\n",
            "line 11: counters[1].at: \"users/{user}/n\" does not capture {poster}, the poster whose posts it counts (per = \"poster\")"
        ),
        (
            "[[counters]]\nname = \"c\"\nat = \"users/{user}/n\"\ncounts = \"follows\"\nper = \"follower\"\n",
            "line 13: counters[1].per: \"follower\" is not an end of follows; per takes user, target"
        ),
        (
            "[[copies]]\nname = \"c\"\nat = \"feed/{user}/{id}/text\"\nof = \"posts.captoin\"\nvia = \"post\"\n",
            "line 12: copies[1].of: posts have no field \"captoin\" (did you mean \"caption\"?)"
        ),
        (
            "[[copies]]\nname = \"c\"\nat = \"feed/{user}/{id}/text\"\nof = \"posts.caption\"\nvia = \"{post}\"\n",
            "line 13: copies[1].via: \"{post}\" names nothing: \"feed/{user}/{id}\" captures {user}, {id}"
        ),
        (
            "[[copies]]\nname = \"c\"\nat = \"feed/{user}/{id}/text\"\nof = \"posts.caption\"\nvia = \"post\"\ntruth = \"cpy\"\n",
            "line 14: copies[1].truth: \"cpy\" is not a choice; truth takes original (the record's field, the default) or copy (the field at at, which the app writes first) (did you mean \"copy\"?)"
        ),
        (
            "[[references]]\nname = \"like-count-mismatch\"\nat = \"pins/{id}/board\"\nto = \"users\"\n",
            "line 10: references[1].name: \"like-count-mismatch\" is the id of a built-in rule"
        ),
        (
            "[[mirrors]]\nname = \"m\"\nof = \"likes\"\nat = \"l/{user}/{post}\"\n[[mirrors]]\nname = \"m\"\nof = \"likes\"\nat = \"k/{user}/{post}\"\n",
            "line 14: mirrors[2].name: \"m\" is already the name of mirrors[1]"
        ),
        (
            "[[mirrors]]\nname = \"m\"\nof = \"likes\"\nat = \"l/{user}\"\n",
            "line 12: mirrors[1].at: \"l/{user}\" does not capture {post}; capture it, or read it from a field of the row (post = \"…\", or post = \".\" for rows that are the key itself"
        ),
        (
            "[[references]]\nname = \"r\"\nat = \"pins/{id}\"\nto = \"boards/{board}\"\n",
            "line 11: references[1].at: \"pins/{id}\" names no board"
        ),
        (
            "[records.threads]\npath = \"threads\"\n",
            "line 10: records.threads.path: \"threads\" captures nothing; capture each record's key, e.g. \"threads/{thread}\""
        ),
        (
            "[records.likes]\npath = \"likes/{like}\"\n",
            "line 9: records.likes: likes is a built-in relation; place it with [likes]"
        ),
        (
            "[records.threads]\npath = \"threads/{thread}\"\nfields = { forum = \"forumId\" }\n[[counters]]\nname = \"c\"\nat = \"boards/{board}/n\"\ncounts = \"threads\"\nper = \"board\"\n",
            "line 16: counters[1].per: \"board\" is not an end of threads; per takes forum"
        ),
        (
            "[records.threads]\npath = \"threads/{thread}\"\n[[counters]]\nname = \"c\"\nat = \"t/{thread}/n\"\ncounts = \"thread\"\n",
            "line 14: counters[1].counts: \"thread\" is not a relation (did you mean \"threads\"?); counts takes users, posts, likes, follows, comments, timeline, flags, threads"
        ),
        (
            "[records.threads]\npath = \"threads/{thread}\"\nfields = { forum = \"forumId\" }\n[[mirrors]]\nname = \"m\"\nof = \"threads\"\nat = \"forums/{forum}/list/{id}\"\n",
            "line 15: mirrors[1].at: \"forums/{forum}/list/{id}\" must capture {thread}, the key of each of the threads, and one end they are grouped by: {forum}"
        ),
        (
            "[records.boards]\npath = \"boards/{board}\"\n[[copies]]\nname = \"c\"\nat = \"pins/{id}/boardName\"\nof = \"boards.name\"\nvia = \"boardid\"\n",
            "line 14: copies[1].of: boards have no field \"name\"; boards.… takes key (name other fields in [records.boards] fields"
        ),
    ])
    func badDeclarationsExitTwoNamingFileLineAndKey(_ declaration: String, _ message: String) throws {
        let cli = try CLI()
        let base =
            "[users]\npath = \"users/{user}\"\n\n[posts]\npath = \"posts/{post}\"\nposter = \"by\"\ncaption = \"text\"\n\n"
        try cli.write(base + declaration, to: "app.toml")
        try cli.write("{\"users\": {\"u1\": {}}, \"posts\": {}}", to: "e.json")
        let result = try cli.run("check", "e.json", "--schema", "app.toml", "--format", "json", "--output", "out.json")
        #expect(result.code == 2)
        #expect(result.stderr.hasPrefix("Error: app.toml: \(message)"), "\(result.stderr)")
        #expect(!cli.exists("out.json"))
    }

    /// The manual's section (docs/layouts.md "Declaring your app's copies") is true: its worked schema is the
    /// fixture's, its example findings are what check prints on the fixture with those drifts, and each kind's example
    /// is a valid declaration.
    @Test func theManualsDeclarationsSectionIsTrue() throws {
        let page = try String(contentsOf: CLI.repository.appendingPathComponent("docs/layouts.md"), encoding: .utf8)
        let section = try #require(page.range(of: "\n## Declaring your app's copies\n"))
        let end = try #require(page.range(of: "\n## ", range: section.upperBound..<page.endIndex))
        let text = String(page[section.upperBound..<end.lowerBound])
        var blocks: [(language: String, body: String)] = []
        var rest = text[...]
        while let open = rest.range(of: "```") {
            let language = rest[open.upperBound...].prefix { $0 != "\n" }
            let bodyStart = rest.index(open.upperBound, offsetBy: language.count + 1)
            let close = try #require(rest.range(of: "```\n", range: bodyStart..<rest.endIndex))
            blocks.append((String(language), String(rest[bodyStart..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        let cli = try CLI()
        let worked = try #require(blocks.last { $0.language == "toml" })
        #expect(
            worked.body == (try DeclaredFixtures.fixture("chirp.toml")),
            "the manual's worked schema is not Tests/Fixtures/declared/chirp.toml")
        try cli.write(try DeclaredFixtures.drifted(DeclaredFixtures.chirp), to: "chirp.json")
        try cli.write(worked.body, to: "chirp.toml")
        let printed = try cli.run("check", "chirp.json", "--schema", "chirp.toml").stdout
        let shown = try #require(blocks.last { $0.language.isEmpty })
        for line in shown.body.split(separator: "\n") {
            #expect(printed.contains(": " + line.trimmingCharacters(in: .whitespaces)), "check does not print \(line)")
        }
        // Each kind's example, added to a layout with the relations it names, is a schema file fanout reads.
        let base =
            "[users]\npath = \"users/{user}\"\nname = \"name\"\n[posts]\npath = \"posts/{post}\"\nposter = \"by\"\n[comments]\npath = \"comments/{post}/{id}\"\nuser = \"by\"\n"
        for example in blocks.dropLast(2) where example.language == "toml" {
            try cli.write(base + example.body, to: "example.toml")
            let result = try cli.run("sql", "--schema", "example.toml")
            #expect(result.code == 0, "\(example.body): \(result.stderr)")
        }
        #expect(blocks.filter { $0.language == "toml" }.count == 5)
    }

    /// The manual's records section (docs/layouts.md "Records of any collection") shows the fixtures' schemas, which
    /// the layout tests above check on their exports.
    @Test func theManualsRecordsSectionShowsTheFixturesSchemas() throws {
        let page = try String(contentsOf: CLI.repository.appendingPathComponent("docs/layouts.md"), encoding: .utf8)
        let section = try #require(page.range(of: "\n## Records of any collection\n"))
        let end = try #require(page.range(of: "\n## ", range: section.upperBound..<page.endIndex))
        let blocks = page[section.upperBound..<end.lowerBound].components(separatedBy: "```toml\n").dropFirst().map {
            String($0.prefix { _ in true }.split(separator: "```", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        #expect(blocks == [try DeclaredFixtures.fixture("forum.toml"), try DeclaredFixtures.fixture("pinwall.toml")])
    }

    /// A declaration whose pattern reaches rows that lack what it reads says what the rows hold, and suggests only a
    /// remedy that fits them: a list of bare IDs is read with `post = "."`, a misspelt field is named.
    @Test func aDeclarationWhoseRowsLackItsFieldsQuotesTheirShape() throws {
        let cli = try CLI()
        let schema = """
            [users]
            path = "users/{user}"
            username = "username"
            [posts]
            path = "posts/{post}"
            poster = "author"
            caption = "body"
            [[mirrors]]
            name = "user-posts"
            of = "posts"
            at = "users/{poster}/posts/{id}"
            post = "postId"

            """
        try cli.write(schema, to: "app.toml")
        let post = "\"posts\": {\"p1\": {\"author\": \"ann\", \"body\": \"hi\"}}"
        let cases = [
            (
                "{\"users\": {\"ann\": {\"username\": \"ann\", \"posts\": {\"a\": \"p1\"}}}, \(post)}",
                "it reaches \"users/ann/posts/a\", which holds the string \"p1\", not an object with the field postId; "
                    + "rows that are the key itself read it with post = \".\""
            ),
            (
                "{\"users\": {\"ann\": {\"username\": \"ann\", \"posts\": {\"a\": {\"postID\": \"p1\"}}}}, \(post)}",
                "it reaches \"users/ann/posts/a\", which has the fields \"postID\" but not postId (did you mean \"postID\"?)"
            ),
        ]
        for (export, shape) in cases {
            try cli.write(export, to: "e.json")
            let result = try cli.run("check", "e.json", "--schema", "app.toml", "--format", "json")
            #expect(
                result.stderr.contains(
                    "warning: e.json: [[mirrors]] user-posts at \"users/{poster}/posts/{id}\" matched nothing; \(shape)\n"
                ),
                "\(result.stderr)")
            // The row without the field is a finding that says so, not a post with an empty key.
            let findings = try json(result.stdout)["findings"] as! [[String: Any]]
            #expect(findings.contains { ($0["message"] as! String).hasPrefix("ann's post (no postId) is in ") })
        }
    }

    /// A declaration whose pattern matches nothing is a warning naming it, as relations are.
    @Test func aDeclarationThatMatchesNothingIsAWarning() throws {
        let cli = try CLI()
        try cli.write(
            try DeclaredFixtures.fixture("agora.toml")
                + "\n[[counters]]\nname = \"x\"\nat = \"stat/postsCount\"\ncounts = \"posts\"\n", to: "a.toml")
        let result = try cli.run(
            "check", DeclaredFixtures.folder.appendingPathComponent("agora.json").path, "--schema", "a.toml")
        #expect(result.code == 0)
        #expect(result.stderr.contains("warning: "), "\(result.stderr)")
        #expect(result.stderr.contains("[[counters]] x at \"stat/postsCount\" matched nothing"), "\(result.stderr)")
    }
}
