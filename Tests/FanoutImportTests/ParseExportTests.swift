import FanoutCore
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

/// Parse exports: one file per class, rows keyed by objectId, pointers, ISO 8601 times, read into the same core.
@Suite struct ParseExportTests {
    static func pointer(_ className: String, _ id: String) -> String {
        "{\"__type\": \"Pointer\", \"className\": \"\(className)\", \"objectId\": \"\(id)\"}"
    }

    /// A small export in a folder: `{"results": [...]}` files and a bare array, a duplicate like, a flag.
    static func writeExport(to folder: TemporaryFolder, under name: String = "") throws {
        let p = pointer
        try folder.write(
            """
            {"results": [
              {"objectId": "uA", "username": "alice", "createdAt": "2017-03-20T10:00:00.000Z"},
              {"username": "nobody-has-no-objectId"},
              {"objectId": "uB", "username": "bob", "createdAt": "2017-03-20T11:00:00.000Z"}
            ]}
            """, to: name + "_User.json")
        try folder.write(
            """
            [
              {"objectId": "pA1", "user": \(p("_User", "uA")), "createdAt": "2017-03-21T18:02:36.786Z",
               "imageFile": {"__type": "File", "name": "a.jpg", "url": "https://files.example/a.jpg"}},
              {"objectId": "pB1", "user": \(p("_User", "uB")), "createdAt": "2017-03-22T09:00:00Z"},
              {"objectId": "pX", "createdAt": 7}
            ]
            """, to: name + "Post.json")
        try folder.write(
            """
            {"results": [
              {"objectId": "l1", "fromUser": \(p("_User", "uB")), "toPost": \(p("Post", "pA1"))},
              {"objectId": "l2", "fromUser": \(p("_User", "uB")), "toPost": \(p("Post", "pA1"))},
              {"objectId": "l3", "fromUser": \(p("_User", "gone")), "toPost": \(p("Post", "pA1"))},
              {"objectId": "l4", "fromUser": null, "toPost": \(p("Post", "pA1"))}
            ]}
            """, to: name + "Like.json")
        try folder.write(
            """
            {"results": [{"objectId": "f1", "fromUser": \(p("_User", "uB")), "toUser": \(p("_User", "uA"))}]}
            """, to: name + "Follow.json")
        try folder.write(
            """
            {"results": [{"objectId": "fl1", "fromUser": \(p("_User", "uA")), "toPost": \(p("Post", "pB1"))}]}
            """, to: name + "FlaggedContent.json")
        try folder.write("{\"results\": [{\"objectId\": \"x\"}]}", to: name + "Installation.json")
    }

    func check(_ d: Dataset) {
        #expect(d.schema.name == "parse")
        #expect(d.users.map { d.key($0.key) } == ["uA", "1", "uB"], "rows without objectId keep their position as key")
        #expect(d.users.map(\.username) == ["alice", "nobody-has-no-objectId", "bob"])
        #expect(d.posts.map { d.key($0.key) } == ["pA1", "pB1", "pX"])
        #expect(d.posts[0].createdAt == 1490119356.786 && d.key(d.posts[0].owner) == "uA")
        #expect(d.posts[0].imageURL == "https://files.example/a.jpg")
        #expect(d.posts[1].createdAt == 1_490_173_200)
        #expect(
            d.likes.map { [d.key($0.post), d.key($0.user), d.key($0.id)] }
                == [["pA1", "uB", "l1"], ["pA1", "uB", "l2"], ["pA1", "gone", "l3"]],
            "duplicates kept, null pointers dropped")
        #expect(d.likes.map { d.path(ofLike: $0) } == ["Like/l1", "Like/l2", "Like/l3"])
        #expect(d.following.map { [d.key($0.user), d.key($0.target)] } == [["uB", "uA"]] && d.followers.isEmpty)
        #expect(d.path(ofFollowing: d.following[0]) == "Follow/f1")
        #expect(d.flags.map { d.path(ofFlag: $0) } == ["FlaggedContent/fl1"] && d.key(d.flags[0].post) == "pB1")
        #expect(d.timeline.isEmpty && d.posts.allSatisfy { $0.storedLikeCount == nil }, "Parse stores neither")
        // pX has no user pointer and a number where the time should be.
        #expect(Set(d.fieldProblems.map(\.path)) == ["Post/pX/user/objectId", "Post/pX/createdAt"])
        #expect(d.path(of: d.posts[0]) == "Post/pA1" && d.path(ofUser: d.users[0].key) == "_User/uA")
    }

    @Test func readsAFolderOfClassFiles() throws {
        let folder = try TemporaryFolder()
        try Self.writeExport(to: folder)
        check(try ExportLoader.load(path: folder.url.path, schema: nil))
        check(try ExportLoader.load(path: folder.url.path, schema: Presets.named("parse")))
    }

    @Test func readsAZipWithTheFilesInAFolder() throws {
        let folder = try TemporaryFolder()
        try Self.writeExport(to: folder, under: "export/")
        // Python's zipfile, as `make test` needs Python anyway; the archive holds the files in export/.
        try folder.run("python3", "-c", "import shutil; shutil.make_archive('parse', 'zip', '.', 'export')")
        check(try ExportLoader.load(path: folder.path("parse.zip"), schema: nil))
    }

    /// Archives as tools write them: stored rather than deflated, and with sizes in data descriptors after each
    /// file (written to a stream that cannot seek back).
    @Test func readsStoredAndStreamedZips() throws {
        let folder = try TemporaryFolder()
        try Self.writeExport(to: folder, under: "export/")
        try folder.run("python3", "-c", Self.zipScript)
        check(try ExportLoader.load(path: folder.path("stored.zip"), schema: nil))
        check(try ExportLoader.load(path: folder.path("streamed.zip"), schema: nil))
    }

    /// Writes `stored.zip` (no compression) and `streamed.zip` (deflated, sizes in data descriptors) of `export/`.
    static let zipScript = """
        import io, os, zipfile
        names = sorted(os.path.join('export', n) for n in os.listdir('export'))
        with zipfile.ZipFile('stored.zip', 'w', zipfile.ZIP_STORED) as z:
            for n in names: z.write(n)
        class Unseekable(io.RawIOBase):
            def __init__(self, f): self.f = f
            def writable(self): return True
            def write(self, b): return self.f.write(b)
        with open('streamed.zip', 'wb') as raw, zipfile.ZipFile(Unseekable(raw), 'w', zipfile.ZIP_DEFLATED) as z:
            for n in names:
                with open(n, 'rb') as f, z.open(n, 'w') as w: w.write(f.read())
        assert all(i.flag_bits & 8 for i in zipfile.ZipFile('streamed.zip').infolist())
        """

    /// Names written in code page 437 (no UTF-8 flag, as older Windows tools do) and files that inflate to
    /// many times their compressed size.
    @Test func readsLegacyNamesAndHighlyCompressedFiles() throws {
        let folder = try TemporaryFolder()
        try Self.writeExport(to: folder, under: "Xber/")
        // Three megabytes of likes of one post: compressed about a hundred times.
        let likes = (0..<24_000).map { i in
            "{\"objectId\": \"x\(i)\", \"fromUser\": \(Self.pointer("_User", "uB")), \"toPost\": \(Self.pointer("Post", "pA1"))}"
        }
        try folder.write("{\"results\": [\(likes.joined(separator: ",\n"))]}", to: "Xber/Like.json")
        try folder.run(
            "python3", "-c",
            """
            import shutil
            shutil.make_archive('parse', 'zip', '.', 'Xber')
            data = open('parse.zip', 'rb').read().replace(b'Xber/', b'\\x81ber/')  # ü in code page 437
            open('legacy.zip', 'wb').write(data)
            """)
        let dataset = try ExportLoader.load(path: folder.path("legacy.zip"), schema: nil)
        #expect(dataset.likes.count == 24_000 && dataset.users.count == 3 && dataset.posts.count == 3)
    }

    /// A damaged file in an archive is one error naming it, at once: its deflate stream used to be fed from the
    /// rest of the archive, and one that never ended made the reader wait forever. (The limit is generous: the
    /// whole suite runs in parallel on two cores, and a hang is forever.)
    @Test(.timeLimit(.minutes(3)))
    func aDamagedFileInAZipIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        try Self.writeExport(to: folder, under: "export/")
        try folder.run("python3", "-c", "import shutil; shutil.make_archive('parse', 'zip', '.', 'export')")
        var zip = try Data(contentsOf: URL(fileURLWithPath: folder.path("parse.zip")))
        // Cut Post.json's deflate stream short: keep its first 20 compressed bytes, zero the rest.
        let name = Data("export/Post.json".utf8)
        // The name's first occurrence is in its local header, 30 bytes in.
        let header = try #require(zip.range(of: name)).lowerBound - 30
        let nameLength = Int(zip[header + 26]) | Int(zip[header + 27]) << 8
        let extraLength = Int(zip[header + 28]) | Int(zip[header + 29]) << 8
        let compressed = Int(zip[header + 18]) | Int(zip[header + 19]) << 8
        let data = header + 30 + nameLength + extraLength
        zip.replaceSubrange((data + 20)..<(data + compressed), with: Data(count: compressed - 20))
        try zip.write(to: URL(fileURLWithPath: folder.path("damaged.zip")))
        #expect {
            try ExportLoader.load(path: folder.path("damaged.zip"), schema: nil)
        } throws: { error in
            "\(error)".contains(
                "damaged.zip: export/Post.json: cannot extract it from the archive: its compressed data is damaged")
        }
    }

    @Test func notAParseExportAndWrongSchemasAreLayoutErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("{}", to: "empty/notes.json")
        #expect {
            try ExportLoader.load(path: folder.path("empty"), schema: nil)
        } throws: { error in
            "\(error)".contains(
                "not a parse export: it has none of _User.json, Post.json, Like.json, Follow.json, FlaggedContent.json; it has notes.json"
            )
        }
        try folder.write("{\"rows\": []}", to: "odd/Post.json")
        #expect {
            try ExportLoader.load(path: folder.path("odd"), schema: nil)
        } throws: { error in
            "\(error)".contains(
                "odd/Post.json: not a Parse class export: expected {\"results\": [...]} or an array of Post objects")
        }
        try folder.write("{\"results\": [{\"objectId\": 1,}]}", to: "broken/_User.json")
        #expect {
            try ExportLoader.load(path: folder.path("broken"), schema: nil)
        } throws: { error in
            "\(error)".contains("broken/_User.json: invalid JSON at line 1, column ")
        }
        #expect {
            try ExportLoader.load(path: folder.path("odd"), schema: Presets.makestagram)
        } throws: { error in
            "\(error)".contains(
                "a folder is read as a Parse export, but the makestagram schema reads one Firebase JSON file")
        }
        try folder.write("{\"users\": {}}", to: "plain.json")
        #expect {
            try ExportLoader.load(path: folder.path("plain.json"), schema: Presets.named("parse"))
        } throws: { error in
            "\(error)".contains("the parse schema reads a Parse export, a folder or .zip of class files")
        }
    }
}
