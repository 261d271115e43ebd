import FanoutTestSupport
import Foundation
import Testing

/// Cloud Firestore exports, read as a user would: `fanout documents` on the real emulator exports against the
/// documents Google's own reader decoded from them, `check` and `build` through a schema file, and damaged files.
@Suite struct FirestoreCLITests {
    static let exports = repositoryRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/testdata/exports/firestore")
    static let names: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: exports.path)) ?? [])
        .filter { FileManager.default.fileExists(atPath: exports.appendingPathComponent("\($0)/decoded.json").path) }
        .sorted()
    static let schemas = repositoryRoot.appendingPathComponent("Tests/Fixtures/firestore")

    static func export(_ name: String) -> String { exports.appendingPathComponent("\(name)/export").path }

    @Test(.enabled(if: names.count == 5, "needs the five real exports in ../shared/testdata/exports/firestore"))
    func documentsEqualGoogleReadersOnEveryRealExport() throws {
        let cli = try CLI()
        for name in Self.names {
            let result = try cli.run("documents", Self.export(name))
            #expect(result.code == 0, "\(name): \(result.stderr)")
            var ours: [String: Any] = [:]
            for line in result.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let path = try #require(object["path"] as? String)
                #expect(ours[path] == nil, "\(name): \(path) listed once")
                ours[path] = Self.normalized(object["fields"]!)
            }
            let decoded = try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.exports.appendingPathComponent("\(name)/decoded.json")))
            let theirs = try #require((decoded as? [String: Any])?["documents"] as? [String: Any])
            #expect(Set(ours.keys) == Set(theirs.keys), "\(name): the same documents")
            for (path, fields) in theirs {
                let expected = Self.normalized(fields) as! NSObject
                let actual = ours[path] as? NSObject
                #expect(actual == expected, "\(name): \(path): \(String(describing: actual)) vs \(expected)")
            }
        }
    }

    /// Timestamps as microseconds since 1970, however many fraction digits the two writers give.
    static func normalized(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            if object.count == 1, let text = object["__timestamp__"] as? String {
                return ["__timestamp__": microseconds(text)]
            }
            return object.mapValues(normalized)
        }
        if let array = value as? [Any] { return array.map(normalized) }
        return value
    }

    static func microseconds(_ text: String) -> Int64 {
        let formatter = ISO8601DateFormatter()
        let parts = text.dropLast().split(separator: ".", maxSplits: 1)
        let whole = formatter.date(from: String(parts[0]) + "Z")!.timeIntervalSince1970
        let digits = parts.count > 1 ? String(parts[1]) : ""
        let fraction = Int64((digits + "000000").prefix(6))!
        return Int64(whole) * 1_000_000 + fraction
    }

    @Test(.enabled(if: names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func treeNestsSubcollectionsUnderTheirDocuments() throws {
        let cli = try CLI()
        let result = try cli.run("documents", "--tree", Self.export("triply"), "--output", "tree.json")
        #expect(result.code == 0, "\(result.stderr)")
        let tree = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("tree.json"))) as? [String: Any])
        #expect(Set(tree.keys) == ["posts", "users"])
        let user = try #require((tree["users"] as? [String: Any])?["58ROB8VRHmM83fVr9QJqK4RZlYAJ"] as? [String: Any])
        #expect(user["username"] as? String == "michal2")
        let follower = (user["followers"] as? [String: Any])?["L10SjJH7DNVUIasTlGKNchO2vKKA"] as? [String: Any]
        #expect(follower?["createdAt"] as? String == "2026-01-13T17:12:26.856Z")
    }

    /// Triply's drift as its README counts it: posts and comments by a user with no document, a post's stored
    /// comment counter behind its comments; and every counter and mirror that agrees gives no finding.
    @Test(.enabled(if: names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func checkFindsTriplysDriftThroughASchemaFile() throws {
        let cli = try CLI()
        let schema = Self.schemas.appendingPathComponent("triply.toml").path
        let result = try cli.run("check", Self.export("triply"), "--schema", schema, "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let byRule = Dictionary(grouping: findings, by: { $0["rule"] as? String ?? "" }).mapValues(\.count)
        #expect(byRule["post-unknown-poster"] == 2, "\(byRule)")
        #expect(byRule["comment-unknown-user"] == 1, "\(byRule)")
        for rule in ["followers-count", "following-count", "follow-mirror-missing", "like-count-mismatch"] {
            #expect(byRule[rule] == nil, "\(rule): \(byRule)")
        }
        let site = try cli.run(
            "build", Self.export("triply"), "--schema", schema, "--out", "site", "--fail-on", "never")
        #expect(site.code == 0, "\(site.stderr)")
        let index = try cli.read("site/index.html")
        for username in ["michal2", "ola", "aaa123"] { #expect(index.contains(username), "\(username) listed") }
    }

    /// blahg numbers its posts by an integer `postID` and copies each under its author's `users/{uid}/posts` with
    /// another document ID: its README counts 5 stale `userDisplayName`s of 6 and 2 copies that outlived their
    /// posts, and no copied field that differs. The findings name the documents as stored, and the two orphaned
    /// copies, the only place those posts' text is left, get no fix.
    @Test(.enabled(if: names.contains("blahg"), "needs ../shared/testdata/exports/firestore/blahg"))
    func checkFindsBlahgsDriftThroughNumericKeys() throws {
        let cli = try CLI()
        let schema = Self.schemas.appendingPathComponent("blahg.toml").path
        let result = try cli.run("check", Self.export("blahg"), "--schema", schema, "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("matched nothing"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let byRule = Dictionary(grouping: findings, by: { $0["rule"] as? String ?? "" })
        #expect(
            byRule.mapValues(\.count) == ["poster-copy-stale": 5, "author-posts": 2], "\(byRule.mapValues(\.count))")
        for finding in findings {
            let path = try #require((finding["paths"] as? [String])?.first)
            let document = path.split(separator: "/").prefix(finding["rule"] as? String == "author-posts" ? 4 : 2)
            let decoded = try String(
                contentsOf: Self.exports.appendingPathComponent("blahg/decoded.json"), encoding: .utf8)
            #expect(decoded.contains("\"\(document.joined(separator: "/"))\""), "\(path) names a stored document")
        }
        for orphan in byRule["author-posts"] ?? [] {
            #expect((orphan["fix"] as? [String: Any])?.isEmpty == true, "\(orphan)")
        }
        let site = try cli.run("build", Self.export("blahg"), "--schema", schema, "--out", "site", "--fail-on", "never")
        #expect(site.code == 0, "\(site.stderr)")
        #expect(try !cli.read("site/index.html").contains("undated"))
    }

    /// Exquisite Corpse keeps its drawings as records of their own, counts their likedBy subcollection in `likes`,
    /// and names a subcollection like a field (`pseudonym: "martin"` beside `pseudonym/martin`): its README counts
    /// the counter off by one, one pseudonym document with an empty uid copy, and a section whose uid and username
    /// copies are empty; the other section lacks both copies.
    @Test(
        .enabled(if: names.contains("exquisite-corpse"), "needs ../shared/testdata/exports/firestore/exquisite-corpse"))
    func exquisiteCorpsesRecordsAndSubcollectionsNamedLikeFieldsAreChecked() throws {
        let cli = try CLI()
        let schema = Self.schemas.appendingPathComponent("exquisite-corpse.toml").path
        let result = try cli.run("check", Self.export("exquisite-corpse"), "--schema", schema, "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("matched nothing"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]]).map {
            "\($0["rule"]!) \(($0["paths"] as! [String])[0]) \($0["actual"].map { "\($0)" } ?? "-")"
        }
        #expect(
            findings.sorted() == [
                "corpse-likes corpses/Temyry2Q5aX3diC8zdw0/likes 0",
                "pseudonym-uid users/6xDuMjdssOEeuhZOn6monREAJL4g/pseudonym/test/uid ",
                "section-uid users/IVgNRDnvg8sdpIf9koYWgwRTKqLT/sections/nBftvqmQHR0XmoIyCJRd/uid ",
                "section-uid users/s2iA6o81MgbfnjLXITZejHxxfDNm/sections/T3Ou6urLiIxCVU6lVfrd/uid <null>",
                "section-username users/IVgNRDnvg8sdpIf9koYWgwRTKqLT/sections/nBftvqmQHR0XmoIyCJRd/username ",
                "section-username users/s2iA6o81MgbfnjLXITZejHxxfDNm/sections/T3Ou6urLiIxCVU6lVfrd/username <null>",
            ], "\(findings)")
        // The field beside the subcollection is still the user's username.
        #expect(!result.stdout.contains("{…}"))
    }

    /// murrit names posts and comments by an `id` field (`pos_…`, `com_…`) and lists each user's posts by those
    /// ids in an array: its README counts no drift, and a list that loses a post or gains another's is found.
    @Test(.enabled(if: names.contains("murrit"), "needs ../shared/testdata/exports/firestore/murrit"))
    func murritsIDFieldsAndPostListsAreChecked() throws {
        let cli = try CLI()
        let schema = Self.schemas.appendingPathComponent("murrit.toml").path
        let clean = try cli.run("check", Self.export("murrit"), "--schema", schema)
        #expect(clean.code == 0 && clean.stdout.hasPrefix("0 errors, 0 warnings, 0 info"), "\(clean.stdout)")
        #expect(!clean.stderr.contains("matched nothing"), "\(clean.stderr)")
        let tree = try cli.run("documents", "--tree", Self.export("murrit"), "--output", "tree.json")
        #expect(tree.code == 0, "\(tree.stderr)")
        var drifted = try JSONTree(cli.read("tree.json"))
        drifted["users/JCT2TJK3PPurg1CZg8qC4lnYHStB/posts"] = [String]()
        drifted["users/pkepiogYFF8Tx8JL6lSXC9LiMO3r/posts"] = [
            "pos_6f64242e-3513-4505-888e-ffc12053e122", "pos_cb4469d1-ba35-458b-9290-bb568e7503c6",
        ]
        try cli.write(drifted.text, to: "drifted.json")
        let check = try cli.run("check", "drifted.json", "--schema", schema, "--format", "json")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdoutData) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["user-posts", "user-posts"], "\(findings)")
        // The emptied list's missing post is its first element, not a key named {i}.
        let paths = findings.compactMap { ($0["paths"] as? [String])?.first }
        #expect(paths.contains("users/JCT2TJK3PPurg1CZg8qC4lnYHStB/posts/0"), "\(paths)")
    }

    /// SketchGram keeps each post's likes as an array of uids: 20 likes, every liker a user (its README's count).
    @Test(.enabled(if: names.contains("sketchgram"), "needs ../shared/testdata/exports/firestore/sketchgram"))
    func arraysOfIDsAreEdges() throws {
        let cli = try CLI()
        let schema = Self.schemas.appendingPathComponent("sketchgram.toml").path
        let check = try cli.run("check", Self.export("sketchgram"), "--schema", schema)
        #expect(check.code == 0 && check.stdout.hasPrefix("0 errors, 0 warnings, 0 info"), "\(check.stdout)")
        let export = try cli.run("export", Self.export("sketchgram"), "--schema", schema, "--out", "snap")
        #expect(export.code == 0, "\(export.stderr)")
        let snapshot = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("snap/snapshot.json"))) as? [String: Any])
        let posts = try #require(snapshot["posts"] as? [String: [String: Any]])
        #expect(posts.count == 15)
        #expect(posts.values.map { $0["like_count"] as? Int ?? -1 }.reduce(0, +) == 20)
        let likers = posts["KxxsYaOHXYOALqLsXR5Y"]?["likers"] as? [String]
        #expect(likers == ["josh", "spruha", "thomas"], "display names of the uids in the array")
    }

    /// An emulator folder holds both databases: the Realtime Database's top-level keys sit beside Firestore's
    /// collections, so one schema and one run audit both; a folder with only the Realtime Database reads as that
    /// JSON file does.
    @Test(.enabled(if: names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func bothDatabasesOfAnEmulatorFolderInOneRun() throws {
        let cli = try CLI()
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.export("triply")), to: cli.url("both"))
        try FileManager.default.createDirectory(at: cli.url("both/database_export"), withIntermediateDirectories: true)
        // `firebase emulators:export` writes the database with format=export: `.priority` kept.
        try cli.write(
            #"{"stats": {".priority": 1, "postsCount": 3, "usersCount": {".value": 4, ".priority": "a"}}}"#,
            to: "both/database_export/triply-4eb0c-default-rtdb.json")
        let metadata = try cli.read("both/firebase-export-metadata.json")
            .replacingOccurrences(
                of: #""auth": {"#, with: #""database": {"version": "15.2.0", "path": "database_export"}, "auth": {"#)
        try cli.write(metadata, to: "both/firebase-export-metadata.json")
        let counters = [
            "[[counters]]", #"name = "posts-count""#, #"at = "stats/postsCount""#, #"counts = "posts""#, "",
            "[[counters]]", #"name = "users-count""#, #"at = "stats/usersCount""#, #"counts = "users""#,
        ]
        let schema = try String(contentsOf: Self.schemas.appendingPathComponent("triply.toml"), encoding: .utf8)
        try cli.write(schema + "\n" + counters.joined(separator: "\n") + "\n", to: "both.toml")
        let result = try cli.run("check", "both", "--schema", "both.toml", "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let counted = findings.filter { ["posts-count", "users-count"].contains($0["rule"] as? String ?? "") }
        #expect(counted.map { $0["paths"] as? [String] ?? [] } == [["stats/postsCount"]], "\(counted)")
        // Located in the database's own file, at the counter's line and column, as a JSON export's finding is.
        let counter = try #require(counted.first)
        #expect(counter["file"] as? String == "both/database_export/triply-4eb0c-default-rtdb.json", "\(counter)")
        #expect(counter["line"] as? Int == 1 && counter["column"] as? Int == 28 && counter["byte_offset"] == nil)
        #expect(findings.filter { $0["rule"] as? String == "post-unknown-poster" }.count == 2, "Firestore's too")
        // The repair writes both databases: the counter in the database's own file, Firestore's documents beside it.
        let repair = try cli.run("export", "both", "--schema", "both.toml", "--out", "out", "--repair")
        #expect(repair.code == 0, "\(repair.stderr)")
        #expect(cli.exists("out/repaired/firestore_export/firestore_export.overall_export_metadata"))
        let repaired = try cli.run("check", "out/repaired", "--schema", "both.toml", "--format", "json")
        let after = try #require(try JSONSerialization.jsonObject(with: repaired.stdoutData) as? [String: Any])
        let left = (after["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(!left.contains("posts-count") && left.filter { $0 == "post-unknown-poster" }.count == 2, "\(left)")

        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json")
        try FileManager.default.createDirectory(at: cli.url("rtdb/database_export"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: demo, to: cli.url("rtdb/database_export/demo-default-rtdb.json"))
        try cli.write(
            #"{"version": "15.2.0", "database": {"version": "15.2.0", "path": "database_export"}}"#,
            to: "rtdb/firebase-export-metadata.json")
        let folder = try cli.run("check", "rtdb", "--format", "json")
        let file = try cli.run("check", demo.path, "--format", "json")
        #expect(folder.code == file.code && folder.code == 1, "\(folder.stderr)")
        func paths(_ result: CLI.Result) -> [[String]] {
            let report = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
            return (report?["findings"] as? [[String: Any]] ?? []).map { $0["paths"] as? [String] ?? [] }
        }
        #expect(!paths(file).isEmpty && paths(folder) == paths(file))
        func places(_ result: CLI.Result) -> [String] {
            let report = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
            return (report?["findings"] as? [[String: Any]] ?? []).map {
                "\($0["line"] as? Int ?? -1):\($0["column"] as? Int ?? -1)"
            }
        }
        #expect(places(folder) == places(file), "the same lines and columns, in the database's file")
        let folderReport = try #require(try JSONSerialization.jsonObject(with: folder.stdoutData) as? [String: Any])
        let files = Set((folderReport["findings"] as? [[String: Any]] ?? []).map { $0["file"] as? String ?? "none" })
        #expect(files == ["rtdb/database_export/demo-default-rtdb.json"], "\(files)")
    }

    /// An emulator folder with several Realtime Database namespaces (a database sharded by user: both files have
    /// `users` and `following`): each finding names the namespace file that holds its path, and the repair writes
    /// each namespace's own file, whose check is clean.
    @Test func eachNamespaceOfAnEmulatorFolderIsNamedAndRepairedOnItsOwn() throws {
        let cli = try CLI()
        let demo = try JSONTree(contentsOf: CLI.repository.appendingPathComponent("Content/demo-export.json"))
        var first = demo
        var second = try JSONTree("{}")
        for (n, user) in demo.keys("users").enumerated() where n % 2 == 1 {
            second["users/\(user)"] = demo["users/\(user)"]
            first["users/\(user)"] = nil
        }
        second["following/zed/ghost"] = true
        try FileManager.default.createDirectory(
            at: cli.url("shards/database_export"), withIntermediateDirectories: true)
        try cli.write(first.text, to: "shards/database_export/demo-default-rtdb.json")
        try cli.write(second.text, to: "shards/database_export/demo-eu.json")
        try cli.write(
            #"{"version": "15.2.0", "database": {"version": "15.2.0", "path": "database_export"}}"#,
            to: "shards/firebase-export-metadata.json")
        let result = try cli.run("check", "shards", "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let files = Dictionary(
            uniqueKeysWithValues: (report["findings"] as? [[String: Any]] ?? []).map {
                (($0["paths"] as? [String] ?? [])[0], $0["file"] as? String ?? "none")
            })
        #expect(files["following/zed/ghost"] == "shards/database_export/demo-eu.json", "\(files)")
        #expect(files.values.filter { $0.hasSuffix("demo-default-rtdb.json") }.count == files.count - 1, "\(files)")
        let whole = try cli.run("check", CLI.repository.appendingPathComponent("Content/demo-export.json").path)
        #expect(whole.code == 1)
        // Every report names the namespaces it read, and `fanout report` renders them from the JSON report.
        #expect(report["namespaces"] as? [String] == ["demo-default-rtdb", "demo-eu"], "\(report.keys)")
        #expect(whole.stdout.contains("(makestagram layout)\n") && !whole.stdout.contains("namespaces"))
        let text = try cli.run("check", "shards")
        #expect(
            text.stdout.contains(
                "rules on shards (makestagram layout; Realtime Database namespaces demo-default-rtdb, demo-eu)"),
            "\(text.stdout.prefix(400))")
        try cli.write(result.stdout, to: "report.json")
        let markdown = try cli.run("report", "report.json", "--format", "markdown")
        #expect(
            markdown.stdout.contains("of `shards` (Realtime Database namespaces demo-default-rtdb, demo-eu)."),
            "\(markdown.stdout.prefix(600))")
        let html = try cli.run("report", "report.json", "--format", "html")
        #expect(
            html.stdout.contains("<code>shards</code> (Realtime Database namespaces demo-default-rtdb, demo-eu).</p>"))

        let repair = try cli.run("export", "shards", "--out", "out", "--repair")
        #expect(repair.code == 0, "\(repair.stderr)")
        for name in ["demo-default-rtdb", "demo-eu"] {
            #expect(cli.exists("out/repaired/database_export/\(name).json"))
        }
        let repairedSecond = try JSONTree(cli.read("out/repaired/database_export/demo-eu.json"))
        #expect(repairedSecond["following/zed"] == nil && repairedSecond.keys("users") == second.keys("users"))
        let repaired = try cli.run("check", "out/repaired", "--format", "json")
        #expect(repaired.code == 0, "\(repaired.stdout)")
    }

    @Test(.enabled(if: names.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func damagedRecordsAreOneErrorNamingFileAndByte() throws {
        let cli = try CLI()
        let original = try Data(
            contentsOf: URL(fileURLWithPath: Self.export("triply"))
                .appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0"))
        var flipped = original
        flipped[100] ^= 0x20
        let truncated = original.prefix(original.count - 10)
        var badType = original
        badType[6] = 9
        for (name, bytes, message) in [
            ("flipped", flipped, "output-0: byte 0: a record's checksum is wrong"),
            ("truncated", truncated, "the file ends inside a record"),
            ("badtype", badType, "output-0: byte 0: a record header has the unknown type 9"),
        ] {
            try FileManager.default.createDirectory(
                at: cli.url("\(name)/all_namespaces/all_kinds"), withIntermediateDirectories: true)
            try cli.write("", to: "\(name)/\(name).overall_export_metadata")
            try bytes.write(to: cli.url("\(name)/all_namespaces/all_kinds/output-0"))
            for args in [["documents", name], ["check", name], ["build", name, "--out", "site"]] {
                let result = try cli.run(args)
                #expect(result.code == 2, "\(name) \(args)")
                #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
        #expect(!cli.exists("site"))
        try FileManager.default.createDirectory(at: cli.url("empty"), withIntermediateDirectories: true)
        try cli.write(#"{"firestore": {"path": "firestore_export"}}"#, to: "empty/firebase-export-metadata.json")
        let empty = try cli.run("documents", "empty")
        #expect(empty.code == 2 && empty.stderr.contains("no *.overall_export_metadata"), "\(empty.stderr)")
    }
}
