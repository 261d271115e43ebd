import FanoutTestSupport
import Foundation
import Testing

/// `fanout tables` through the binary: the rows are those an independent reading of the export finds, the
/// rows that decide `post-field` and `key-invalid` give `check`'s findings, the manifest matches the files, and
/// bad input leaves nothing behind (docs/tables.md).
@Suite struct TablesCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// A table folder as read back: the manifest, and per table its rows parsed from its files in order.
    struct Tables {
        let manifest: [String: Any]
        var rows: [String: [[String: Any]]] = [:]
        /// Per table, the raw lines, in order.
        var lines: [String: [String]] = [:]

        init(_ cli: CLI, _ folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            manifest =
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(folder)/_manifest.json")))
                as! [String: Any]
            for (name, table) in manifest["tables"] as! [String: [String: Any]] {
                var lines: [String] = []
                for file in table["files"] as! [String] {
                    var data = try Data(contentsOf: cli.url("\(folder)/\(file)"))
                    if file.hasSuffix(".gz") { data = try TablesCLITests.gunzip(cli, "\(folder)/\(file)") }
                    let text = String(decoding: data, as: UTF8.self)
                    #expect(
                        text.isEmpty || text.hasSuffix("\n"), "\(file) ends with a newline",
                        sourceLocation: sourceLocation)
                    lines += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
                }
                self.lines[name] = lines
                rows[name] = try lines.map { line in
                    // Every row is one JSON object on one line.
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                }
            }
        }

        var tables: [String: [String: Any]] { manifest["tables"] as! [String: [String: Any]] }

        /// The manifest's columns of `table`: names and types.
        func columns(_ table: String) -> [(name: String, type: String)] {
            (tables[table]!["columns"] as! [[String: String]]).map { ($0["name"]!, $0["type"]!) }
        }

        /// The rows of `table` as comparable text, without `seq` (which `expected` cannot know), sorted.
        func normalized(_ table: String) -> [String] {
            TablesCLITests.normalized(rows[table] ?? [], columns(table))
        }
    }

    /// Rows as text, column by column in the manifest's order and by its types, sorted, leaving out `seq`.
    static func normalized(_ rows: [[String: Any]], _ columns: [(name: String, type: String)]) -> [String] {
        rows.map { row in
            columns.filter { $0.name != "seq" }.map { column -> String in
                guard let value = row[column.name], !(value is NSNull) else { return "null" }
                switch column.type {
                case "double": return "\((value as! NSNumber).doubleValue)"
                case "bigint": return "\((value as! NSNumber).int64Value)"
                case "string": return "\"\(value as! String)\""
                default:
                    let data = try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
                    return String(decoding: data, as: UTF8.self)
                }
            }.joined(separator: "\u{1}")
        }.sorted()
    }

    static func gunzip(_ cli: CLI, _ file: String) throws -> Data {
        let result = try runTool("gzip", ["-dc", cli.url(file).path])
        #expect(result.code == 0, "gzip -dc \(file)")
        return result.stdoutData
    }

    // MARK: an independent reading of a Makestagram export (JSONSerialization, no Fanout code)

    /// A JSON number that is not a boolean, as JSONSerialization gives it.
    static func number(_ value: Any?) -> NSNumber? {
        guard let number = value as? NSNumber, String(describing: type(of: number)) != "__NSCFBoolean" else {
            return nil
        }
        return number
    }

    /// The time in a push ID (20 characters, the first 8 milliseconds in base 64), written independently.
    static func pushIDTime(_ key: String) -> Double? {
        let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        let chars = Array(key)
        guard key.utf8.count == 20, chars.count == 20, chars.allSatisfy(alphabet.contains) else { return nil }
        let millis = chars.prefix(8).reduce(0) { $0 * 64 + Int64(alphabet.firstIndex(of: $1)!) }
        return Double(millis) / 1000
    }

    /// Whether an edge's value means present (`false` and `null` mean absent).
    static func present(_ value: Any) -> Bool {
        !(value is NSNull) && !(String(describing: type(of: value)) == "__NSCFBoolean" && (value as! Bool) == false)
    }

    /// `value`, or JSON's null where it has none.
    static func orNull<T>(_ value: T?) -> Any { value.map { $0 as Any } ?? NSNull() }

    /// The key a field names, as docs/layouts.md says: a string, or an integer as its decimal text.
    static func keyText(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        guard let n = value as? NSNumber, let int = Int64(n.stringValue) else { return nil }
        return String(int)
    }

    /// The rows each table must hold for the Makestagram export at `path`, without `seq` and `field_problems`.
    static func expectedRows(_ path: String) throws -> [String: [[String: Any]]] {
        let root =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
        var rows: [String: [[String: Any]]] = [:]
        for (uid, node) in object(root["users"]) where present(node) {
            rows["users", default: []].append([
                "path": "users/\(uid)", "user": uid, "username": object(node)["username"] ?? NSNull(),
            ])
        }
        for (owner, byKey) in object(root["posts"]) {
            for (key, node) in object(byKey) where present(node) {
                let post = object(node), poster = object(post["poster"])
                let created = number(post["created_at"]).map(\.doubleValue)
                let count = number(post["like_count"]).flatMap { Int64(exactly: $0.doubleValue) }
                // Each value typed on its own: as one literal it took the type checker 1.2 s.
                let row: [String: Any] = [
                    "path": "posts/\(owner)/\(key)", "post": key, "owner": owner,
                    "created_at": orNull(created), "push_id_time": orNull(pushIDTime(key)),
                    "like_count": orNull(count), "poster_uid": orNull(keyText(poster["uid"])),
                    "poster_username": orNull(poster["username"] as? String),
                ]
                rows["posts", default: []].append(row)
            }
        }
        for (post, likers) in object(root["postLikes"]) {
            for (user, value) in object(likers) where present(value) {
                rows["likes", default: []].append(["path": "postLikes/\(post)/\(user)", "post": post, "user": user])
            }
        }
        for (user, targets) in object(root["following"]) {
            for (target, value) in object(targets) where present(value) {
                rows["following", default: []].append([
                    "path": "following/\(user)/\(target)", "user": user, "target": target,
                ])
            }
        }
        for (target, users) in object(root["followers"]) {
            for (user, value) in object(users) where present(value) {
                rows["followers", default: []].append([
                    "path": "followers/\(target)/\(user)", "user": user, "target": target,
                ])
            }
        }
        for (user, posts) in object(root["timeline"]) {
            for (post, value) in object(posts) where present(value) {
                rows["timeline", default: []].append([
                    "path": "timeline/\(user)/\(post)", "user": user, "post": post,
                    "poster": keyText(object(value)["poster_uid"]) ?? NSNull(),
                ])
            }
        }
        return rows
    }

    /// Checks the tables in `folder` against the independent reading of `export`, and against `check`'s
    /// `post-field` and `key-invalid` findings; returns the tables.
    @discardableResult
    func expectTablesMatch(
        _ cli: CLI, export: String, folder: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Tables {
        let tables = try Tables(cli, folder)
        let expected = try Self.expectedRows(export)
        for (name, rows) in expected {
            var columns = tables.columns(name)
            if name == "posts" { columns.removeAll { $0.name == "field_problems" } }
            let found = Self.normalized(tables.rows[name]!, columns)
            #expect(found == Self.normalized(rows, columns), "table \(name)", sourceLocation: sourceLocation)
        }
        for name in ["like_mirror", "flags"] { #expect(tables.rows[name]!.isEmpty, sourceLocation: sourceLocation) }

        // Rows carry every column of the manifest, with its type, and `seq` orders them as the export stores them.
        for (name, rows) in tables.rows {
            let columns = tables.columns(name)
            for row in rows {
                #expect(
                    Set(row.keys) == Set(columns.map(\.name)), "\(name): \(row.keys.sorted())",
                    sourceLocation: sourceLocation)
                for column in columns {
                    let value = row[column.name]!
                    guard !(value is NSNull) else { continue }
                    let ok =
                        switch column.type {
                        case "string": value is String
                        case "bigint": Self.number(value).map { Int64(exactly: $0.doubleValue) != nil } ?? false
                        case "double": Self.number(value) != nil
                        default: value is [Any]
                        }
                    #expect(
                        ok, "\(name).\(column.name) = \(value) is not a \(column.type)", sourceLocation: sourceLocation)
                }
            }
            let seqs = rows.map { ($0["seq"] as! NSNumber).int64Value }
            if name != "key_problems" {
                #expect(
                    seqs == seqs.sorted() && Set(seqs).count == seqs.count, "\(name) seq",
                    sourceLocation: sourceLocation)
            }
        }

        // `check`'s findings of the two rules decided while reading come out of the tables.
        let report = try cli.run("check", export, "--format", "json", "--fail-on", "never")
        let findings =
            (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any])["findings"]
            as! [[String: Any]]
        func of(_ rule: String) -> [[String: Any]] { findings.filter { $0["rule"] as? String == rule } }
        let fieldFindings = of("post-field").map {
            "\(($0["paths"] as! [String])[0]) \($0["expected"]!) \($0["actual"]!)"
        }.sorted()
        let fieldRows = tables.rows["posts"]!.flatMap { $0["field_problems"] as! [[String: String]] }
            .map { "\($0["path"]!) \($0["expected"]!) \($0["actual"]!)" }.sorted()
        #expect(fieldRows == fieldFindings, sourceLocation: sourceLocation)
        // key-invalid: per key, its row first in the rule's search order (relation rank, then seq).
        var first: [String: [String: Any]] = [:]
        for row in tables.rows["key_problems"]! where row["kind"] as? String == "key" {
            let key = row["key"] as! String
            func order(_ row: [String: Any]) -> (Int64, Int64) {
                ((row["relation_rank"] as! NSNumber).int64Value, (row["seq"] as! NSNumber).int64Value)
            }
            if let seen = first[key], order(seen) < order(row) { continue }
            first[key] = row
        }
        let keyFindings = of("key-invalid").map { "\(($0["paths"] as! [String])[0]) \($0["message"]!)" }.sorted()
        #expect(
            first.values.map { "\($0["path"]!) \($0["message"]!)" }.sorted() == keyFindings,
            sourceLocation: sourceLocation)
        return tables
    }

    /// The manifest's counts and files are the folder's: nothing more, nothing less.
    func expectManifestMatchesFiles(
        _ cli: CLI, _ folder: String, _ tables: Tables, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var listed: Set<String> = ["_manifest.json", ".fanout-output"]
        for (name, table) in tables.tables {
            #expect(
                (table["rows"] as! Int) == tables.lines[name]!.count, "\(name) rows", sourceLocation: sourceLocation)
            let files = table["files"] as! [String]
            #expect(
                !files.isEmpty && files.allSatisfy { $0.hasPrefix("\(name)/part-") }, "\(files)",
                sourceLocation: sourceLocation)
            listed.formUnion(files)
        }
        #expect(Set(cli.files(under: folder)) == listed, sourceLocation: sourceLocation)
    }

    // MARK: tests

    @Test func demoTablesHoldWhatAnIndependentReadingFinds() throws {
        let cli = try CLI()
        let result = try cli.run("tables", Self.demo, "--out", "t")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote t: "))
        let tables = try expectTablesMatch(cli, export: Self.demo, folder: "t")
        expectManifestMatchesFiles(cli, "t", tables)
        #expect(tables.rows["timeline"]!.count > 20 && tables.rows["posts"]!.count == 10)

        let manifest = tables.manifest
        #expect(manifest["format_version"] as? Int == 1)
        let export = manifest["export"] as! [String: Any]
        #expect(export["name"] as? String == Self.demo)
        #expect(
            export["bytes"] as? Int
                == (try FileManager.default.attributesOfItem(atPath: Self.demo)[.size] as! NSNumber).intValue)
        let schema = manifest["schema"] as! [String: Any]
        #expect(schema["name"] as? String == "makestagram")
        let relations = schema["relations"] as! [String: [String: Any]]
        #expect(Set(relations.keys) == ["users", "posts", "likes", "following", "followers", "timeline"])
        #expect(relations["timeline"]!["path"] as? String == "timeline/{user}/{post}")
        #expect((relations["posts"]!["fields"] as! [String: Any])["like_count"] as? String == "like_count")
    }

    @Test func generatedExportWithDefectsAndInvalidKeys() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "60", "--seed", "5", "--defects", "30", "--out", "g.json").code == 0)
        // Keys Firebase refuses, in a user, a like and a timeline, and a post with fields of the wrong type.
        var text = try cli.read("g.json")
        text.replace(
            #""users":{"#, with: #""users":{"bad.key":{"username":"dot"},"tab\tkey":{"username":"tab"},"#,
            maxReplacements: 1)
        text.replace(#""postLikes":{"#, with: #""postLikes":{"p$x":{"bad.key":true,"u1":true},"#, maxReplacements: 1)
        text.replace(#""timeline":{"#, with: #""timeline":{"bad.key":{"p$x":{"poster_uid":"u1"}},"#, maxReplacements: 1)
        text.replace(
            #""posts":{"#,
            with:
                #""posts":{"u9":{"-Kfm1DtVx0kQ9zPq2Lm7":{"like_count":"7","created_at":"yesterday","image_height":[1],"poster":{"uid":5}}},"#,
            maxReplacements: 1)
        try cli.write(text, to: "g.json")
        let result = try cli.run("tables", "g.json", "--out", "t")
        #expect(result.code == 0, "\(result.stderr)")
        let tables = try expectTablesMatch(cli, export: cli.url("g.json").path, folder: "t")
        expectManifestMatchesFiles(cli, "t", tables)
        let keyRows = tables.rows["key_problems"]!
        #expect(Set(keyRows.compactMap { $0["key"] as? String }) == ["bad.key", "tab\tkey", "p$x"])
        #expect(tables.rows["posts"]!.contains { ($0["field_problems"] as! [Any]).count >= 3 })
    }

    @Test func rowsPerFileSplitsPartsAndGzipHoldsTheSameRows() throws {
        let cli = try CLI()
        #expect(try cli.run("tables", Self.demo, "--out", "plain").code == 0)
        let plain = try Tables(cli, "plain")

        #expect(try cli.run("tables", Self.demo, "--out", "split", "--rows-per-file", "7").code == 0)
        let split = try Tables(cli, "split")
        expectManifestMatchesFiles(cli, "split", split)
        #expect(split.lines == plain.lines, "the same rows in the same order")
        let timelineFiles = split.tables["timeline"]!["files"] as! [String]
        #expect(timelineFiles == (0..<5).map { String(format: "timeline/part-%05d.ndjson", $0) }, "35 rows, 7 a file")
        for (name, table) in split.tables {
            for file in table["files"] as! [String] {
                #expect(try cli.read("split/\(file)").split(separator: "\n").count <= 7, "\(name)")
            }
        }

        #expect(try cli.run("tables", Self.demo, "--out", "gz", "--gzip", "--rows-per-file", "10").code == 0)
        let gz = try Tables(cli, "gz")
        #expect(gz.lines == plain.lines, "gzip parts decompress to the same rows")
        #expect(gz.tables.values.allSatisfy { ($0["files"] as! [String]).allSatisfy { $0.hasSuffix(".ndjson.gz") } })
        expectManifestMatchesFiles(cli, "gz", gz)
        #expect((gz.manifest["options"] as! [String: Any])["gzip"] as? Bool == true)

        #expect(try cli.run("tables", Self.demo, "--out", "x", "--rows-per-file", "0").code == 2)
        #expect(!cli.exists("x"))
    }

    @Test func gzipInputAndStandardInputGiveTheSameRows() throws {
        let cli = try CLI()
        #expect(try cli.run("tables", Self.demo, "--out", "plain").code == 0)
        let plain = try Tables(cli, "plain")
        let demo = try Data(contentsOf: URL(fileURLWithPath: Self.demo))
        try demo.write(to: cli.url("demo.json"))
        try runTool("gzip", ["-k", cli.url("demo.json").path])
        #expect(try cli.run("tables", "demo.json.gz", "--out", "gz").code == 0)
        #expect(try Tables(cli, "gz").lines == plain.lines, "gzip input, inflated through a temporary file")
        #expect(try cli.run(["tables", "-", "--out", "stdin"], stdin: demo).code == 0)
        #expect(try Tables(cli, "stdin").lines == plain.lines)
        let compressed = try Data(contentsOf: cli.url("demo.json.gz"))
        #expect(try cli.run(["tables", "-", "--out", "stdin-gz"], stdin: compressed).code == 0)
        #expect(try Tables(cli, "stdin-gz").lines == plain.lines)
        // A gzip export cut short: exit 2, and neither the folder nor the temporary file is left.
        try compressed.prefix(compressed.count / 2).write(to: cli.url("cut.json.gz"))
        let cut = try cli.run("tables", "cut.json.gz", "--out", "cut")
        #expect(cut.code == 2 && cut.stderr.contains("truncated gzip data"), "\(cut.stderr)")
        #expect(!cli.exists("cut"))
    }

    @Test func truncatedOrInvalidExportExitsTwoAndLeavesNothing() throws {
        let cli = try CLI()
        let demo = try String(contentsOfFile: Self.demo, encoding: .utf8)
        try cli.write(String(demo.prefix(demo.count * 2 / 3)), to: "cut.json")
        try cli.write("{\"users\": {\"u1\": {\"username\": \"a\",}}}", to: "bad.json")
        try cli.write("[1, 2]", to: "array.json")
        for file in ["cut.json", "bad.json", "array.json", "missing.json"] {
            let result = try cli.run("tables", file, "--out", "t")
            #expect(result.code == 2, "\(file)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(file), "\(result.stderr)")
        }
        #expect(
            cli.files(under: ".").sorted() == ["array.json", "bad.json", "cut.json"], "no folder, no temporary left")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)
        #expect(siblings.allSatisfy { !$0.contains("fanout-tmp") })

        // A previous table folder stays as it was.
        #expect(try cli.run("tables", Self.demo, "--out", "t").code == 0)
        let before = try cli.read("t/_manifest.json")
        #expect(try cli.run("tables", "cut.json", "--out", "t").code == 2)
        #expect(try cli.read("t/_manifest.json") == before)
        // A folder Fanout did not make is never replaced.
        try cli.write("mine", to: "docs/notes.txt")
        #expect(try cli.run("tables", Self.demo, "--out", "docs").code == 2)
        #expect(cli.files(under: "docs") == ["notes.txt"])
    }

    @Test func otherLayoutsFillTheirTables() throws {
        let cli = try CLI()
        let feed = Feed.sample
        // Instaclone: owners in a field, a like mirror, entries stored as 1, timelines without a poster field.
        try cli.write(feed.instaclone, to: "instaclone.json")
        #expect(try cli.run("tables", "instaclone.json", "--out", "i").code == 0)
        let insta = try Tables(cli, "i")
        expectManifestMatchesFiles(cli, "i", insta)
        #expect(
            Set(insta.rows["posts"]!.map { "\($0["path"]!) \($0["owner"]!)" })
                == Set(feed.posts.map { "posts/\($0.key) \($0.owner)" }))
        #expect(
            Set(insta.rows["like_mirror"]!.map { $0["path"] as! String })
                == Set(feed.likes.map { "user-likes/\($0.user)/\($0.post)" }))
        #expect(
            insta.rows["like_mirror"]!.allSatisfy {
                ($0["path"] as! String) == "user-likes/\($0["user"]!)/\($0["post"]!)"
            })
        #expect(
            Set(insta.rows["timeline"]!.map { $0["path"] as! String })
                == Set(feed.storedTimelines.map { "user-feed/\($0.user)/\($0.post)" }))
        #expect(insta.rows["timeline"]!.allSatisfy { $0["poster"] is NSNull })
        #expect((insta.manifest["schema"] as! [String: Any])["edge_value"] as? Int == 1)

        // FriendlyPix, the real console export: likes inside posts, people, two feed locations (one read).
        #expect(try cli.run("tables", LayoutTests.friendlyPix.path, "--out", "f").code == 0)
        let pix = try Tables(cli, "f")
        expectManifestMatchesFiles(cli, "f", pix)
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: LayoutTests.friendlyPix)) as! [String: Any]
        let posts = root["posts"] as! [String: [String: Any]]
        let likes = posts.flatMap { key, post in
            ((post["likes"] as? [String: Any]) ?? [:]).keys.map { "posts/\(key)/likes/\($0)" }
        }
        #expect(Set(pix.rows["likes"]!.map { $0["path"] as! String }) == Set(likes))
        #expect(
            Set(pix.rows["posts"]!.map { "\($0["post"]!) \($0["owner"]!)" })
                == Set(posts.map { "\($0.key) \($0.value["author"]!)" }))
        #expect(Set(pix.rows["users"]!.map { $0["user"] as! String }) == Set((root["people"] as! [String: Any]).keys))
        let feedEntries = (root["feed"] as! [String: [String: Any]]).flatMap { user, posts in
            posts.keys.map { "feed/\(user)/\($0)" }
        }
        #expect(Set(pix.rows["timeline"]!.map { $0["path"] as! String }) == Set(feedEntries))
    }

    /// The table layouts of docs/tables.md are the manifest's: every table, every column, every type, in order.
    @Test func theManualsTableLayoutsMatchTheManifest() throws {
        let cli = try CLI()
        #expect(try cli.run("tables", Self.demo, "--out", "t").code == 0)
        let tables = try Tables(cli, "t")
        let page = try String(contentsOf: CLI.repository.appendingPathComponent("docs/tables.md"), encoding: .utf8)
        let section = try #require(page.range(of: "\n## Table layouts\n"))
        let header = try #require(page.range(of: "\n| table |", range: section.upperBound..<page.endIndex))
        let lines = page[header.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        var documented: [String: [String]] = [:]
        for line in lines.prefix(while: { $0.hasPrefix("|") }) where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            documented[name] = cells[2].components(separatedBy: ", ").map { $0.replacingOccurrences(of: "`", with: "") }
        }
        #expect(Set(documented.keys) == Set(tables.tables.keys))
        for name in tables.tables.keys {
            #expect(documented[name] == tables.columns(name).map { "\($0.name) \($0.type)" }, "\(name)")
        }
    }

    @Test func parseExportsGiveRowsNamedByClassAndObjectId() throws {
        let cli = try CLI()
        for (name, text) in Feed.sample.parseFiles { try cli.write(text, to: "parse/\(name)") }
        let result = try cli.run("tables", "parse", "--out", "t")
        #expect(result.code == 0, "\(result.stderr)")
        let tables = try Tables(cli, "t")
        expectManifestMatchesFiles(cli, "t", tables)
        let feed = Feed.sample
        #expect(Set(tables.rows["users"]!.map { $0["path"] as! String }) == Set(feed.users.map { "_User/\($0.uid)" }))
        #expect(
            Set(tables.rows["posts"]!.map { "\($0["path"]!) \($0["owner"]!)" })
                == Set(feed.posts.map { "Post/\($0.key) \($0.owner)" }))
        #expect(
            tables.rows["posts"]!.allSatisfy { ($0["created_at"] as? NSNumber) != nil && $0["like_count"] is NSNull })
        let likes = tables.rows["likes"]!
        #expect(likes.count == feed.likes.count + 1, "the double tap's second row too")
        #expect(
            Set(likes.map { $0["path"] as! String })
                == Set((0..<feed.likes.count).map { "Like/like\($0)" } + ["Like/likeAgain"]))
        #expect(likes.allSatisfy { $0["path"] as? String == "Like/\($0["id"]!)" })
        #expect(
            Set(tables.rows["following"]!.map { "\($0["user"]!)>\($0["target"]!)" })
                == Set(feed.follows.map { "\($0.user)>\($0.target)" }))
        #expect(
            tables.rows["flags"]!.map { $0["path"] as! String } == ["FlaggedContent/flag0", "FlaggedContent/flag1"])
        #expect(tables.rows["key_problems"]!.isEmpty, "key-invalid does not run on Parse exports")
        #expect((tables.manifest["schema"] as! [String: Any])["format"] as? String == "parse")
        // Rows of each class keep the file's order.
        for (name, rows) in tables.rows {
            let seqs = rows.map { ($0["seq"] as! NSNumber).int64Value }
            #expect(seqs == seqs.sorted(), "\(name)")
        }
    }
}
