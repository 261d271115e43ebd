import FanoutExport
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

/// The `instagram-flutter` preset on an emulator folder written as that app writes its documents: detected with no
/// schema from its posts' fields, every copy it keeps checked, each drift found once, and the repair's
/// `documents:commit` writes leave nothing a fix can mend.
@Suite struct InstagramFlutterPresetTests {
    /// The sample feed's documents with one drift of each copy the app keeps.
    static func drifted() -> [FirestoreDocument] {
        var documents = Feed.sample.instagramFlutterDocuments
        func edit(_ path: [String], _ name: String, _ change: (inout FirestoreValue) -> Void) {
            let d = documents.firstIndex { $0.segments == path }!
            let f = documents[d].fields.firstIndex { $0.name == name }!
            change(&documents[d].fields[f].value)
        }
        let posts = Feed.sample.posts.map(\.key)
        edit(["posts", posts[1]], "username") { $0 = .string("bobby") }
        edit(["posts", posts[2]], "profImage") { $0 = .string("https://img.example/old.png") }
        edit(["posts", posts[3]], "postId") { $0 = .string("post-3") }
        edit(["posts", posts[0], "comments", "c1"], "name") { $0 = .string("b0") }
        // uAnn follows uCy; uCy's followers lost her.
        edit(["users", "uCy"], "followers") { value in
            guard case .array(let elements) = value else { return }
            value = .array(elements.filter { $0 != .string("uAnn") })
        }
        return documents
    }

    static func findings(_ result: CLI.Result) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(report["schema"] as? String == "instagram-flutter", "detected from the posts' fields")
        return try #require(report["findings"] as? [[String: Any]])
    }

    @Test func eachCopysDriftIsFoundOnceWithNoSchemaFile() throws {
        let cli = try CLI()
        try EmulatorFolder.write(Feed.sample.instagramFlutterDocuments, to: cli.url("clean").path)
        try EmulatorFolder.write(Self.drifted(), to: cli.url("drifted").path)
        let clean = try Self.findings(try cli.run("check", "clean", "--format", "json", "--fail-on", "never"))
        // The sample's own drift: a like by a deleted user, a follow of one, a self-follow.
        let cleanRules = clean.compactMap { $0["rule"] as? String }.sorted()
        #expect(cleanRules == ["follow-self", "follow-unknown-user", "like-unknown-user"], "\(clean)")
        let drifted = try Self.findings(try cli.run("check", "drifted", "--format", "json", "--fail-on", "never"))
        let cleanKeys = Set(clean.map { "\($0["rule"]!) \($0["paths"]!)" })
        let new = drifted.filter { !cleanKeys.contains("\($0["rule"]!) \($0["paths"]!)") }
        let posts = Feed.sample.posts.map(\.key)
        let found = new.map { "\($0["rule"] as? String ?? "") \(($0["paths"] as? [String])?.first ?? "")" }.sorted()
        #expect(
            found
                == [
                    "comment-author-name posts/\(posts[0])/comments/c1/name",
                    "follow-mirror-missing users/uCy/followers/0",
                    "post-id posts/\(posts[3])/postId",
                    "post-poster-photo posts/\(posts[2])/profImage",
                    "poster-copy-stale posts/\(posts[1])/username",
                ], "\(new)")
        // Located at the documents' records, as every Firestore finding is.
        #expect(new.allSatisfy { ($0["file"] as? String)?.hasSuffix("all_kinds/output-0") == true })

        let export = try cli.run("export", "drifted", "--out", "fixed", "--repair")
        #expect(export.code == 0, "\(export.stderr)")
        let repaired = try Self.findings(
            try cli.run("check", "fixed/repaired", "--format", "json", "--fail-on", "never"))
        #expect(repaired.allSatisfy { $0["fix"] == nil }, "only findings without a mechanical fix remain: \(repaired)")
        #expect(repaired.count == clean.filter { $0["fix"] == nil }.count, "\(repaired)")
    }

    @Test func theSiteShowsEachUsersTimeline() throws {
        let cli = try CLI()
        try EmulatorFolder.write(Feed.sample.instagramFlutterDocuments, to: cli.url("app").path)
        let build = try cli.run("build", "app", "--out", "site", "--fail-on", "never")
        #expect(build.code == 0, "\(build.stderr)")
        // Own posts and followed users' posts, newest first, read from the follow and like arrays.
        let pages = try TimelinePages(cli, site: "site")
        for user in Feed.sample.users {
            #expect(pages.posts[user.uid] == Feed.sample.timeline(user.uid), "\(user.uid)")
        }
    }
}
