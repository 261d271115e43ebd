import FanoutCore
import FanoutImport
import FanoutTestSupport
import Testing

/// Schema files: the presets are schema files, and every mistake in a user's file names the file, line and key.
@Suite struct SchemaFileTests {
    func parse(_ text: String) throws -> Schema {
        try SchemaFile.parse(text, source: "app.toml", defaultName: "app")
    }

    /// The message of the schema error `text` raises.
    func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func everyPresetIsAValidSchemaFile() throws {
        #expect(Presets.names == ["makestagram", "instaclone", "friendlypix", "instagram-flutter", "parse"])
        for name in Presets.names {
            let text = try #require(Presets.text(of: name))
            let schema = try SchemaFile.parse(text, source: "\(name).toml", defaultName: "copy")
            #expect(schema == Presets.named(name), "\(name) reads the same from its printed text")
            #expect(schema.summary?.isEmpty == false, "\(name) has a summary for `fanout schemas`")
        }
    }

    @Test func makestagramPresetIsTheLayoutOfSeeds000And003() {
        // The Swift value the foundation shipped, written out field by field: the TOML preset must equal it.
        var expected = Schema(
            name: "makestagram",
            users: UserRelation(pattern: PathPattern("users/{user}")!, username: FieldPath("username")),
            posts: PostRelation(
                pattern: PathPattern("posts/{poster}/{post}")!,
                createdAt: TimeField(FieldPath("created_at"), unit: .seconds), caption: FieldPath("caption"),
                imageURL: FieldPath("image_url"), imageHeight: FieldPath("image_height"),
                likeCount: FieldPath("like_count"), posterUID: FieldPath("poster/uid"),
                posterUsername: FieldPath("poster/username"),
                required: ["created_at", "image_url", "image_height", "like_count", "poster/uid", "poster/username"]
                    .map(FieldPath.init)),
            likes: EdgeRelation(pattern: PathPattern("postLikes/{post}/{user}")!),
            following: EdgeRelation(pattern: PathPattern("following/{user}/{target}")!),
            followers: EdgeRelation(pattern: PathPattern("followers/{target}/{user}")!),
            timeline: TimelineRelation(
                pattern: PathPattern("timeline/{user}/{post}")!, posterUID: FieldPath("poster_uid")))
        expected.summary = Presets.makestagram.summary
        #expect(Presets.makestagram == expected)
    }

    @Test func shortFormsRowsAndEveryKey() throws {
        let schema = try parse(
            """
            name = "rows"
            format = "parse"
            users = "People/{user}"
            [posts]
            path = "Photo/{post}"
            key = "objectId"
            poster = "owner/objectId"
            created_at = { field = "createdAt", unit = "iso8601" }
            mirror = { path = "Owns/{id}", user = "u", post = "p" }
            [likes]
            path = "Like/{id}"
            key = "objectId"
            user = "fromUser/objectId"
            post = "toPost/objectId"
            [follows]
            followers = "Fans/{target}/{user}"
            [flags]
            path = "Flag/{id}"
            user = "by"
            post = "what"
            """)
        #expect(schema.name == "rows" && schema.format == .parse)
        #expect(schema.users?.pattern.description == "People/{user}")
        #expect(schema.posts?.key == FieldPath("objectId") && schema.posts?.owner == FieldPath("owner/objectId"))
        #expect(schema.posts?.createdAt == TimeField(FieldPath("createdAt"), unit: .iso8601))
        #expect(schema.postMirror?.user == FieldPath("u") && schema.postMirror?.post == FieldPath("p"))
        #expect(schema.likes?.user == FieldPath("fromUser/objectId") && schema.likes?.key == FieldPath("objectId"))
        #expect(schema.following == nil && schema.followers?.pattern.description == "Fans/{target}/{user}")
        #expect(schema.flags?.post == FieldPath("what"))
        #expect(schema.rootKeys == ["People", "Photo", "Owns", "Like", "Fans", "Flag"])
        #expect(try parse("users = \"u/{user}\"").name == "app", "the name defaults to the file's")
    }

    @Test func edgeValueIsTrueUnlessTheFileSaysOne() throws {
        #expect(try parse("users = \"users/{user}\"\n").edgeValue == .true)
        #expect(try parse("edge_value = true\nusers = \"users/{user}\"\n").edgeValue == .true)
        #expect(try parse("edge_value = 1\nusers = \"users/{user}\"\n").edgeValue == .one)
        #expect(Presets.named("instaclone")?.edgeValue == .one && Presets.makestagram.edgeValue == .true)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let message = failure("name = \"x\"\n[posts]\npath = \"posts/{post}\nposter = \"a\"\n")
        #expect(message.hasPrefix("app.toml: invalid TOML at line 3, column "), "\(message)")
    }

    @Test func semanticErrorsNameFileLineAndKey() {
        let cases: [(String, String)] = [
            // A misspelled key is an error, not silently ignored.
            (
                "[posts]\npath = \"p/{post}\"\nposter = \"o\"\ncaptoin = \"c\"\n",
                "app.toml: line 4: posts.captoin: unknown key; [posts] takes path,"
            ),
            ("colour = 1\n", "app.toml: line 1: colour: unknown key; a schema file takes name,"),
            (
                "[posts]\npath = \"p/{post}\"\nposter = \"o\"\ncreated_at = { field = \"t\", unit = \"mss\" }\n",
                "app.toml: line 4: posts.created_at.unit: \"mss\" is not a unit; use s, ms, us or iso8601, or a format such as format = \"%Y-%m-%d %H:%M\""
            ),
            (
                "[posts]\npath = \"p/{post}\"\nposter = \"o\"\ncreated_at = \"t\"\n",
                "app.toml: line 4: posts.created_at: expected { field"
            ),
            (
                "[posts]\npath = \"p/{post}\"\nposter = 3\n",
                "app.toml: line 3: posts.poster: expected a string, found an integer"
            ),
            (
                "\n[likes]\npath = \"likes/{post}/{liker}\"\n",
                "app.toml: line 3: likes.path: \"likes/{post}/{liker}\" uses {liker}; this relation captures {post}, {user}, {id}"
            ),
            (
                "[likes]\npath = \"likes/{post}\"\n",
                "app.toml: line 2: likes.path: \"likes/{post}\" must capture {user}, or read it from a field of the row"
            ),
            (
                "[likes]\npath = \"likes/{post}/{user}\"\nuser = \"by\"\n",
                "likes.path: \"likes/{post}/{user}\" uses {user} ({user} is already read from a field)"
            ),
            (
                "[posts]\npath = \"posts/{post}\"\n",
                "app.toml: line 2: posts.path: posts need an owner: capture {poster} in the path or name the owner's field"
            ),
            (
                "[posts]\npath = \"posts/{poster}/{post}\"\nposter = \"uid\"\n",
                "app.toml: line 3: posts.poster: the path already captures {poster}"
            ),
            (
                "[posts]\npath = \"posts//{post}\"\nposter = \"o\"\n",
                "app.toml: line 2: posts.path: \"posts//{post}\" is not a path pattern"
            ),
            (
                "[posts]\npath = \"posts/{post}\"\nposter = \"a//b\"\n",
                "app.toml: line 3: posts.poster: \"a//b\" is not a field path"
            ),
            ("[timeline]\nposter = \"p\"\n", "app.toml: line 1: timeline: missing path"),
            ("[follows]\n", "app.toml: line 1: follows: name where follows are stored"),
            (
                "[follows]\nfollowing = { path = \"f/{user}/{target}\", post = \"x\" }\n",
                "app.toml: line 2: follows.following.post: unknown key"
            ),
            ("format = \"sql\"\n", "app.toml: line 1: format: \"sql\" is not a format"),
            (
                "\nedge_value = 2\n",
                "app.toml: line 2: edge_value: expected true or 1 (what the app stores at an edge's key), found 2"
            ),
            ("edge_value = \"1\"\n", "app.toml: line 1: edge_value: expected true or 1"),
            (
                "format = \"parse\"\nusers = \"{user}\"\n",
                "app.toml: line 2: users: \"{user}\" must start with the class name"
            ),
            (
                "[posts]\npath = \"p/{post}\"\nposter = \"o\"\nrequired = [\"a\", 2]\n",
                "app.toml: line 4: posts.required: expected an array of field paths, found an integer in it"
            ),
        ]
        for (text, expected) in cases {
            let message = failure(text)
            #expect(message.contains(expected), "\(message)\n  expected: \(expected)")
        }
    }

    @Test func aSchemaFileOnDiskIsNamedAfterItself() throws {
        let folder = try TemporaryFolder()
        try folder.write("[users]\npath = \"members/{user}\"\nusername = \"handle\"\n", to: "my-app.toml")
        let schema = try SchemaFile.load(path: folder.path("my-app.toml"))
        #expect(schema.name == "my-app")
        #expect(throws: InputError.self) { try SchemaFile.load(path: folder.path("missing.toml")) }
        do {
            _ = try SchemaFile.load(path: folder.path("missing.toml"))
        } catch {
            #expect("\(error)".hasPrefix("cannot read schema file \(folder.path("missing.toml")):"))
        }
    }
}
