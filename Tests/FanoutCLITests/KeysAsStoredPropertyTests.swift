import FanoutTestSupport
import Foundation
import Testing

/// Random exports of the layout of ``KeysAsStoredTests`` (posts stored under keys of their own and numbered by a
/// `postid` field, as a string or a number; likes and comments naming posts by those numbers, some of posts or
/// users that do not exist), through the binary: no fix deletes a path the export lacks or writes under a record it
/// lacks, and every like and comment row the layout matches is either read (a row of `fanout tables`) or named by a
/// finding, never dropped.
@Suite struct KeysAsStoredPropertyTests {
    /// A random export, as its JSON value.
    static func export(_ random: inout SeededGenerator) -> [String: Any] {
        let users = (1...(2 + random.next(3))).map { "u\($0)" }
        let postCount = 1 + random.next(4)
        var posts: [String: Any] = [:]
        for id in 1...postCount {
            // The stored key: the number itself or a key of its own; the field: a string or a number.
            let stored = random.next(3) == 0 ? "\(id)" : "post\(id)"
            posts[stored] = [
                "postid": random.next(2) == 0 ? "\(id)" as Any : id as Any,
                "uid": users[random.next(users.count)],
                "caption": "post \(id)",
                "likeCount": random.next(3),
            ]
        }
        // Ends that may not exist: a post numbered past the last, a user never stored.
        func someUser(_ random: inout SeededGenerator) -> String {
            random.next(5) == 0 ? "u9" : users[random.next(users.count)]
        }
        var likes: [String: [String: Bool]] = [:]
        for _ in 0..<random.next(6) {
            likes["\(1 + random.next(postCount + 1))", default: [:]][someUser(&random)] = true
        }
        var comments: [String: Any] = [:]
        for n in 0..<random.next(4) {
            let post = 1 + random.next(postCount + 1)
            comments["c\(n)"] = [
                "postid": random.next(2) == 0 ? "\(post)" as Any : post as Any, "uid": someUser(&random),
                "text": "comment \(n)",
            ]
        }
        return [
            "users": Dictionary(uniqueKeysWithValues: users.map { ($0, ["username": "name-\($0)"]) }),
            "posts": posts, "likes": likes, "comments": comments,
        ]
    }

    /// Whether the export holds a node at `path` (keys split at `/`).
    static func holds(_ export: [String: Any], _ path: String) -> Bool {
        var node: Any = export
        for key in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard let object = node as? [String: Any], let next = object[String(key)] else { return false }
            node = next
        }
        return true
    }

    @Test func fixesNameWhatTheExportHasAndNoRowIsDropped() throws {
        let cli = try CLI()
        try cli.write(KeysAsStoredTests.schema, to: "numbered.toml")
        var random = SeededGenerator(seed: 46)
        // What the rounds checked, so that the test is of something: fixes that delete and that write, rows.
        var deletions = 0, writes = 0, rowsChecked = 0, rowsInFindings = 0
        for round in 0..<25 {
            let export = Self.export(&random)
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: export, options: [.sortedKeys]), as: UTF8.self)
            try cli.write(text, to: "export.json")
            let place = "round \(round): \(text)"
            let result = try cli.run(
                "check", "export.json", "--schema", "numbered.toml", "--format", "json", "--max-per-rule", "all")
            #expect(result.code <= 1, "\(place): \(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
            let findings = try #require(report?["findings"] as? [[String: Any]], "\(place)")
            var named = Set<String>()
            for finding in findings {
                let paths = finding["paths"] as? [String] ?? []
                named.formUnion(paths)
                for (path, value) in finding["fix"] as? [String: Any] ?? [:] {
                    if value is NSNull {
                        deletions += 1
                        #expect(
                            Self.holds(export, path),
                            "\(place): \(finding["rule"] ?? "") deletes \(path), which is not there")
                    } else {
                        writes += 1
                        let record = path.split(separator: "/").prefix(2).joined(separator: "/")
                        #expect(
                            Self.holds(export, record),
                            "\(place): \(finding["rule"] ?? "") writes \(path) under \(record), which is not there")
                    }
                }
            }
            try? FileManager.default.removeItem(at: cli.url("tables"))
            let tables = try cli.run("tables", "export.json", "--schema", "numbered.toml", "--out", "tables")
            #expect(tables.code == 0, "\(place): \(tables.stderr)")
            for table in ["likes", "comments"] {
                let rows = try cli.read("tables/\(table)/part-00000.ndjson").split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
                }
                let read = Set(rows)
                let stored: [String]
                switch table {
                case "likes":
                    stored = (export["likes"] as! [String: [String: Bool]]).flatMap { post, users in
                        users.keys.map { "likes/\(post)/\($0)" }
                    }
                default: stored = (export["comments"] as! [String: Any]).keys.map { "comments/\($0)" }
                }
                for path in stored {
                    rowsChecked += 1
                    if !read.contains(path) { rowsInFindings += 1 }
                    #expect(
                        read.contains(path) || named.contains { $0 == path || $0.hasPrefix(path + "/") },
                        "\(place): \(path) is neither read nor named by a finding")
                }
            }
        }
        #expect(
            deletions > 5 && writes > 5 && rowsChecked > 50,
            "\(deletions) deletions, \(writes) writes, \(rowsChecked) rows, \(rowsInFindings) in findings")
    }
}
