import FanoutCore
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

/// The presets read their apps' layouts into the same core; detection picks them from the top-level keys.
@Suite struct PresetLayoutTests {
    static let friendlyPix = repositoryFile("Tests/Fixtures/friendlypix-initial_db.json").path

    func pairs(_ d: Dataset, _ likes: [Like]) -> [[String]] { likes.map { [d.key($0.post), d.key($0.user)] } }

    @Test func instacloneReadsOnesAsPresentAndTheOwnerFromAField() throws {
        let d = try load(
            """
            {"users": {"u1": {"username": "ann", "name": "Ann A", "profileImageUrl": "https://x/a.jpg"}, "u2": {"username": "bo"}},
             "posts": {"-Kx": {"ownerUid": "u1", "caption": "hi", "imageUrl": "https://x/p.jpg", "likes": 2, "creationDate": 1591945200}},
             "user-posts": {"u1": {"-Kx": 1}},
             "post-likes": {"-Kx": {"u2": 1, "u1": 1}}, "user-likes": {"u2": {"-Kx": 1}},
             "user-following": {"u2": {"u1": 1}}, "user-followers": {"u1": {"u2": 1}},
             "user-feed": {"u2": {"-Kx": 1}, "u1": {"-Kx": 0}}}
            """, schema: Presets.named("instaclone")!)
        #expect(d.users.map(\.name) == ["Ann A", nil] && d.users[0].profileImageURL == "https://x/a.jpg")
        let post = try #require(d.posts.first)
        #expect(d.key(post.owner) == "u1" && post.ownerField == post.owner && post.pathOwner == noKey)
        #expect(post.createdAt == 1_591_945_200 && post.storedLikeCount == 2 && post.imageURL == "https://x/p.jpg")
        #expect(pairs(d, d.likes) == [["-Kx", "u2"], ["-Kx", "u1"]] && pairs(d, d.likeMirror) == [["-Kx", "u2"]])
        #expect(d.postMirror.map { [d.key($0.user), d.key($0.post)] } == [["u1", "-Kx"]])
        #expect(d.following.count == 1 && d.followers.count == 1)
        #expect(d.timeline.map { d.key($0.user) } == ["u2", "u1"], "0 is a value too; only false and null are absent")
        #expect(d.path(of: post, field: FieldPath("likes")) == "posts/-Kx/likes")
        #expect(d.path(ofMirroredLike: d.likeMirror[0]) == "user-likes/u2/-Kx")
        #expect(d.fieldProblems.isEmpty)
    }

    @Test func friendlyPixExportReadsEveryRelation() throws {
        let d = try ExportLoader.load(path: Self.friendlyPix, schema: nil)
        #expect(d.schema.name == "friendlypix", "detected from its top-level keys")
        #expect(d.users.count == 241 && d.posts.count == 266)
        #expect(d.posts.allSatisfy { $0.owner != noKey && $0.createdAt != nil })
        #expect(d.posts.filter { $0.caption != nil }.count == 197, "69 posts have no text")
        let kitty = try #require(d.posts.first { d.key($0.key) == "-K9euzjFOpEFYT5lUZrh" })
        #expect(
            kitty.caption == "Kitty!!!" && kitty.createdAt == 1454566538.308
                && d.key(kitty.owner) == "05781774870892877580")
        #expect(d.likes.count == 3 && d.likeMirror.count == 3)
        #expect(d.following.count == 9 && d.followers.count == 9)
        #expect(d.postMirror.count == 249, "17 posts are missing from users/{uid}/posts")
        #expect(d.timeline.count == 2, "feed/{uid}/{post} is the stored timeline; users/{uid}/feed is not read")
        #expect(d.users.contains { $0.username == "Kalyan Reddy" && $0.name == "Kalyan Reddy" }, "display name as both")
        #expect(d.path(ofTimeline: d.timeline[0].user, post: d.timeline[0].post)?.hasPrefix("feed/") == true)
        #expect(d.path(ofLike: d.likes[0])?.hasSuffix("/likes/" + d.key(d.likes[0].user)) == true)
        #expect(!d.keys.contains("dr5ru5dckf"), "GeoFire records and .priority values are skipped")
    }

    @Test func rowEdgesReadTheirEndsFromFieldsAndKeepTheirRowKeys() throws {
        var schema = Presets.makestagram
        schema.likes = EdgeRelation(
            pattern: PathPattern("likeRows/{id}")!, user: FieldPath("by"), post: FieldPath("on/key"))
        let d = try load(
            """
            {"users": {"u1": {"username": "a"}},
             "likeRows": {"r1": {"by": "u1", "on": {"key": "-Kx"}}, "r2": {"by": "u1", "on": {"key": "-Kx"}},
                          "r3": {"on": {"key": "-Kx"}}, "r4": false}}
            """, schema: schema)
        #expect(
            pairs(d, d.likes) == [["-Kx", "u1"], ["-Kx", "u1"]],
            "duplicates are kept; a row without its user is not a like")
        #expect(d.likes.map { d.path(ofLike: $0) } == ["likeRows/r1", "likeRows/r2"])
    }

    @Test func detectionPicksEachPresetByItsOwnKeys() throws {
        let cases: [(String, String)] = [
            ("{\"followers\": {}, \"posts\": {}, \"users\": {}}", "makestagram"),
            ("{\"post-likes\": {}, \"posts\": {}}", "instaclone"),
            ("{\"-Kgeo\": {\".priority\": \"x\", \"g\": \"x\"}, \"comments\": {}, \"people\": {}}", "friendlypix"),
            // Shared keys alone decide when only one preset has them.
            ("{\"timeline\": {}}", "makestagram"),
        ]
        for (json, name) in cases {
            let bytes = ExportBytes(bytes: Array(json.utf8), source: "t.json")
            let d = try ExportLoader.load(bytes, schema: Presets.named(name)!)
            #expect(d.schema.name == name)
            let folder = try TemporaryFolder()
            try folder.write(json, to: "t.json")
            #expect(try ExportLoader.load(path: folder.path("t.json"), schema: nil).schema.name == name, "\(json)")
        }
    }

    @Test func unknownAmbiguousAndMixedLayoutsAreErrorsListingKeysAndPresets() throws {
        let folder = try TemporaryFolder()
        func message(_ json: String) throws -> String {
            try folder.write(json, to: "t.json")
            do {
                _ = try ExportLoader.load(path: folder.path("t.json"), schema: nil)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let unknown = try message("{\"comments\": {}, \"stuff\": []}")
        #expect(
            unknown.contains("cannot tell the layout: its top-level keys are \"comments\", \"stuff\""), "\(unknown)")
        #expect(
            unknown.contains(
                "none of them is a key of a preset (makestagram, instaclone, friendlypix, instagram-flutter)"),
            "\(unknown)")
        #expect(
            !unknown.contains("postLikes") && !unknown.contains("\"users\""), "only keys the export has: \(unknown)")
        #expect(
            unknown.contains("presets: makestagram, instaclone, friendlypix, instagram-flutter, parse"), "\(unknown)")
        let ambiguous = try message("{\"posts\": {}, \"users\": {}}")
        #expect(
            ambiguous.contains(
                "ambiguous layout: its top-level keys are \"posts\", \"users\"; of these, \"posts\", \"users\" fit makestagram, instaclone, friendlypix, instagram-flutter"
            ), "\(ambiguous)")
        let mixed = try message("{\"followers\": {}, \"user-feed\": {}}")
        #expect(
            mixed.contains("ambiguous layout: it has top-level keys of makestagram")
                && mixed.contains("\"user-feed\" (instaclone)"), "\(mixed)")
        let array = try message("[1, 2]")
        #expect(array.contains("not a Firebase export"), "\(array)")
        let broken = try message("{\"users\": {\"u1\": }")
        #expect(broken.contains("invalid JSON at line 1, column "), "\(broken)")
    }
}

extension KeyTable {
    /// Whether `key` was interned.
    func contains(_ key: String) -> Bool { lookup(key) != nil }
}
