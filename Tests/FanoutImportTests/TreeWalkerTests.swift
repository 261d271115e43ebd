import FanoutCore
import FanoutImport
import FanoutJSON
import Testing

func load(_ json: String, schema: Schema = Presets.makestagram) throws -> Dataset {
    try ExportLoader.load(ExportBytes(bytes: Array(json.utf8), source: "test.json"), schema: schema)
}

@Suite struct TreeWalkerTests {
    let sample = """
        {
          "users": {"u1": {"username": "alice"}, "u2": {"username": "bob", "bio": "ignored"}},
          "posts": {
            "u1": {
              "-Kx": {"created_at": 1490119356.786182, "image_height": 374.9999999999999,
                      "image_url": "https://example.com/a.jpg", "like_count": 1,
                      "poster": {"uid": "u1", "username": "alice"}, "caption": "hi *there*"}
            }
          },
          "postLikes": {"-Kx": {"u2": true}},
          "following": {"u2": {"u1": true}},
          "followers": {"u1": {"u2": true}},
          "timeline": {"u2": {"-Kx": {"poster_uid": "u1"}}, "u1": {"-Kx": {"poster_uid": "u1"}}},
          "unrelated": {"deep": [1, 2, {"x": null}]}
        }
        """

    @Test func readsEveryRelationOfTheMakestagramLayout() throws {
        let d = try load(sample)
        #expect(d.users.map { d.key($0.key) } == ["u1", "u2"])
        #expect(d.users.map(\.username) == ["alice", "bob"])
        let post = try #require(d.posts.first)
        #expect(d.key(post.key) == "-Kx" && d.key(post.owner) == "u1")
        #expect(post.createdAt == 1490119356.786182)
        #expect(post.imageHeight == 374.9999999999999)
        #expect(post.imageURL == "https://example.com/a.jpg")
        #expect(post.storedLikeCount == 1)
        #expect(d.key(post.posterCopyUID) == "u1" && post.posterCopyUsername == "alice")
        #expect(post.caption == "hi *there*")
        #expect(d.likes.map { [d.key($0.post), d.key($0.user)] } == [["-Kx", "u2"]])
        #expect(d.following.map { [d.key($0.user), d.key($0.target)] } == [["u2", "u1"]])
        #expect(d.followers.map { [d.key($0.user), d.key($0.target)] } == [["u2", "u1"]])
        #expect(d.timeline.count == 2)
        #expect(d.timeline.allSatisfy { d.key($0.posterUID) == "u1" })
        #expect(d.fieldProblems.isEmpty)
        #expect(d.path(of: post, field: FieldPath("like_count")) == "posts/u1/-Kx/like_count")
    }

    @Test func consistentSampleHasNoFindings() throws {
        let d = try load(sample)
        let result = Audit.run(CheckContext(dataset: d, derived: DerivedData(d)))
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    @Test func wrongTypesAndMissingFieldsBecomeFieldProblems() throws {
        let d = try load(
            """
            {"users": {"u1": {"username": "a"}},
             "posts": {"u1": {"-Kx": {"created_at": "yesterday", "image_height": 1, "image_url": "https://x",
                                       "like_count": "3", "poster": {"uid": "u1"}}}}}
            """)
        let problems = Dictionary(uniqueKeysWithValues: d.fieldProblems.map { ($0.path, $0.actual) })
        #expect(problems["posts/u1/-Kx/created_at"] == "string \"yesterday\"")
        #expect(problems["posts/u1/-Kx/like_count"] == "string")
        #expect(problems["posts/u1/-Kx/poster/username"] == "missing")
        #expect(problems.count == 3)
        #expect(d.posts[0].storedLikeCount == nil)
    }

    @Test func priorityWrappersAndFalseEdgesAndMetadataKeys() throws {
        let d = try load(
            """
            {"users": {"u1": {"username": {".value": "alice", ".priority": 3}, ".priority": 1}, "u2": {"username": "b"}},
             "postLikes": {"-Kx": {"u1": true, "u2": false}},
             "following": {"u1": {".priority": 5, "u2": true}}}
            """)
        #expect(d.users.first?.username == "alice")
        #expect(d.likes.count == 1)
        #expect(d.following.map { d.key($0.target) } == ["u2"])
    }

    @Test func arraysAreObjectsWithIntegerKeys() throws {
        let d = try load(
            """
            {"users": [{"username": "zero"}, null, {"username": "two"}]}
            """)
        #expect(d.users.map { d.key($0.key) } == ["0", "2"])
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect {
            try load("{\n  \"users\": {\n    \"u1\": {\"username\": \"a\",}\n  }\n}")
        } throws: { error in
            guard case InputError.syntax(let source, let syntax) = error else { return false }
            return source == "test.json" && syntax.line == 3
                && "\(error)".hasPrefix("test.json: invalid JSON at line 3, column ")
        }
    }

    @Test func jsonThatIsNotAnExportIsALayoutError() {
        #expect { try load("[1, 2, 3]") } throws: { error in
            "\(error)".contains("not a Firebase export")
        }
        #expect { try load("{\"hello\": 1, \"world\": 2}") } throws: { error in
            "\(error)".contains("not a makestagram export") && "\(error)".contains("\"hello\"")
        }
    }

    @Test func iso8601Timestamps() throws {
        var schema = Presets.makestagram
        schema.posts?.createdAt = TimeField(FieldPath("createdAt"), unit: .iso8601)
        let d = try load(
            """
            {"users": {"u": {"username": "u"}}, "posts": {"u": {"a": {"createdAt": "2017-03-21T18:02:36.786Z"}, "b": {"createdAt": "2017-03-21T20:02:36+02:00"},
                             "c": {"createdAt": "2017-13-01T00:00:00Z"}}}}
            """, schema: schema)
        #expect(d.posts[0].createdAt == 1490119356.786)
        #expect(d.posts[1].createdAt == 1_490_119_356)
        #expect(d.posts[2].createdAt == nil)
    }
}
