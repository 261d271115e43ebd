import Foundation
import Testing

/// A schema that does not fit the export says so, in the user's terms: which relation matched nothing and what
/// the export has instead, rather than a report of every post's owner as unknown.
@Suite struct SchemaFitCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
    static let demoKeys =
        "the export's top-level keys are \"users\", \"posts\", \"postLikes\", \"following\", \"followers\", \"timeline\""

    @Test func usersThatMatchNothingIsAnErrorNamingTheRelationAndTheKeys() throws {
        let cli = try CLI()
        try cli.write(
            """
            [users]
            path = "members/{user}"
            username = "username"

            [posts]
            path = "posts/{poster}/{post}"
            caption = "caption"

            [likes]
            path = "postLikes/{post}/{user}"
            """, to: "members.toml")
        let result = try cli.run("check", Self.demo, "--schema", "members.toml")
        #expect(result.code == 2, "exit \(result.code)")
        #expect(
            result.stderr.contains(
                "[users] path \"members/{user}\" matched nothing, so every user the export names "
                    + "would be unknown; \(Self.demoKeys)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no report of every owner as unknown")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anotherRelationThatMatchesNothingIsAWarning() throws {
        let cli = try CLI()
        let preset = try cli.run("schemas", "show", "makestagram").stdout
        try cli.write(
            preset.replacingOccurrences(of: "postLikes/{post}/{user}", with: "likes/{post}/{user}"), to: "app.toml")
        let result = try cli.run("check", Self.demo, "--schema", "app.toml", "--format", "json")
        #expect(result.code == 1, "the check runs: \(result.stderr)")
        #expect(
            result.stderr
                == "warning: \(Self.demo): [likes] path \"likes/{post}/{user}\" matched nothing; the export has no "
                + "top-level key \"likes\"; \(Self.demoKeys.replacing("the export's", with: "its"))\n",
            "\(result.stderr)")
        // A path that stops deeper names the node where it stops and the keys there, with the nearest one.
        try cli.write(
            preset.replacingOccurrences(of: "postLikes/{post}/{user}", with: "postLikes/{post}/likers/{user}"),
            to: "deeper.toml")
        let deeper = try cli.run("check", Self.demo, "--schema", "deeper.toml", "--format", "json").stderr
        #expect(
            deeper.contains(
                "[likes] path \"postLikes/{post}/likers/{user}\" matched nothing; \"postLikes/{post}\" reaches \"postLikes/"
            ),
            "\(deeper)")
        #expect(deeper.hasSuffix(", but no key \"likers\"\n"), "\(deeper)")
        try cli.write(
            preset.replacingOccurrences(of: "postLikes/{post}/{user}", with: "postLike/{post}/{user}"), to: "near.toml")
        let near = try cli.run("check", Self.demo, "--schema", "near.toml", "--format", "json").stderr
        #expect(near.contains("no top-level key \"postLike\" (did you mean \"postLikes\"?)"), "\(near)")
        // The demo read with its own preset warns about nothing.
        #expect(try cli.run("check", Self.demo, "--format", "json").stderr.isEmpty)
    }

    @Test func aSchemaWithANameButNoUsernameShowsTheName() throws {
        let cli = try CLI()
        try cli.write(
            """
            {"members": {"u1": {"displayName": "Ada Lovelace"}, "u2": {"displayName": "Grace Hopper"}},
             "photos": {"-Kfm1DtVx0kQ9zPq2Lm7": {"owner": "u1", "time": 1490119356, "text": "hi"}},
             "likes": {"-Kfm1DtVx0kQ9zPq2Lm7": {"u2": true}}}
            """, to: "export.json")
        try cli.write(
            """
            [users]
            path = "members/{user}"
            name = "displayName"

            [posts]
            path = "photos/{post}"
            poster = "owner"
            created_at = { field = "time", unit = "s" }
            caption = "text"

            [likes]
            path = "likes/{post}/{user}"
            """, to: "app.toml")
        let build = try cli.run("build", "export.json", "--schema", "app.toml", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let index = try cli.read("site/index.html")
        #expect(index.contains(">Ada Lovelace</bdi></a>") && index.contains(">Grace Hopper</bdi></a>"), "\(index)")
        #expect(try cli.read("site/users/u1/index.html").contains("Ada Lovelace"))
        let post = try cli.files(under: "site/posts").map { try cli.read("site/posts/\($0)") }.joined()
        #expect(post.contains("Ada Lovelace") && post.contains("Grace Hopper"), "poster and liker by name")
        #expect(!index.contains(">u1</bdi></a>") && !post.contains(">u2<"), "not the uids")
    }

    @Test func anEmptySchemaFileSaysWhatToWrite() throws {
        let cli = try CLI()
        try cli.write("", to: "empty.toml")
        try cli.write("name = \"mine\"\n", to: "named.toml")
        for (file, what) in [("empty.toml", "the file is empty"), ("named.toml", "the schema places no relation")] {
            let result = try cli.run("check", Self.demo, "--schema", file)
            #expect(result.code == 2)
            #expect(
                result.stderr.contains(
                    "\(file): \(what), so it would read nothing from an export. A schema file says "
                        + "where each relation is, at least users and posts, e.g. [users] path = \"users/{user}\""),
                "\(result.stderr)")
            #expect(result.stderr.contains("`fanout schemas show makestagram` prints a complete one"))
            #expect(!result.stderr.contains("expected \n") && !result.stderr.hasSuffix("expected\n"))
        }
    }

    @Test func theDetectionErrorQuotesOnlyKeysTheExportHas() throws {
        let cli = try CLI()
        try cli.write("{\"foo\": 1, \"bar\": {\"x\": 1}}", to: "unknown.json")
        let unknown = try cli.run("check", "unknown.json")
        #expect(unknown.code == 2)
        #expect(
            unknown.stderr.contains(
                "cannot tell the layout: its top-level keys are \"foo\", \"bar\", and none of them is "
                    + "a key of a preset (makestagram, instaclone, friendlypix, instagram-flutter)"),
            "\(unknown.stderr)")
        for absent in ["postLikes", "user-feed", "people", "\"users\""] {
            #expect(!unknown.stderr.contains(absent), "\(absent) is not in the export")
        }
        try cli.write("{\"foo\": 1, \"users\": {}, \"bar\": {}}", to: "ambiguous.json")
        let ambiguous = try cli.run("check", "ambiguous.json")
        #expect(
            ambiguous.stderr.contains(
                "ambiguous layout: its top-level keys are \"foo\", \"users\", \"bar\"; of these, "
                    + "\"users\" fits makestagram, instaclone, friendlypix, instagram-flutter alike"),
            "\(ambiguous.stderr)")
        // Many keys: the first ten, and how many in all.
        let many = "{" + (1...25).map { "\"k\($0)\": 1" }.joined(separator: ", ") + "}"
        try cli.write(many, to: "many.json")
        let listed = try cli.run("check", "many.json")
        #expect(listed.stderr.contains("\"k9\", \"k10\", … (25 in all), and none of them"), "\(listed.stderr)")
        #expect(!listed.stderr.contains("\"k11\""))
    }
}
