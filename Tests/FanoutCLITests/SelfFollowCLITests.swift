import Foundation
import Testing

/// A user following themself (docs/layouts.md "Declaring your app's copies", counters): the audit does not count it
/// as a follow (`follow-self`, which the repair deletes), a follower counter counts it when the schema says the app's
/// does (`self = "counted"`), and the profile and index pages count as the audit does, saying the self-follow is
/// there.
@Suite struct SelfFollowCLITests {
    /// Chirp with dee following themself, written as the app writes a follow: both rows, and the counter the app
    /// increments on every follow.
    static func selfFollowingChirp() throws -> String {
        var tree = try JSONTree(DeclaredFixtures.fixture("chirp.json"))
        tree["following/uDee/-Nr0099bbbbbbbbbbbbb"] = ["key": "uDee", "name": "Dee Ray", "username": "dee"]
        tree["followers/uDee/list/-Nr0099bbbbbbbbbbbbb"] = ["key": "uDee", "name": "Dee Ray"]
        tree["followers/uDee/count"] = 1
        return tree.text
    }

    static func schema(countingSelf: Bool) throws -> String {
        let text = try DeclaredFixtures.fixture("chirp.toml")
        guard countingSelf else { return text }
        let counter =
            "name = \"follower-count\"\nat = \"followers/{target}/count\"\ncounts = \"follows\"\nper = \"target\"\n"
        #expect(text.contains(counter))
        return text.replacing(counter, with: counter + "self = \"counted\"\n")
    }

    @Test(arguments: [false, true])
    func theFollowerCounterCountsSelfFollowsAsTheSchemaSays(_ countingSelf: Bool) throws {
        let cli = try CLI()
        try cli.write(try Self.selfFollowingChirp(), to: "chirp.json")
        try cli.write(try Self.schema(countingSelf: countingSelf), to: "chirp.toml")
        let result = try cli.run("check", "chirp.json", "--schema", "chirp.toml", "--format", "json")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let findings = (report["findings"] as! [[String: Any]]).map {
            "\($0["rule"]!) \(($0["paths"] as! [String])[0]): \($0["message"]!)"
        }
        #expect(findings.contains { $0.hasPrefix("follow-self following/uDee/-Nr0099bbbbbbbbbbbbb") }, "\(findings)")
        let counter = findings.filter { $0.hasPrefix("follower-count") }
        #expect(
            counter
                == (countingSelf
                    ? [] : ["follower-count followers/uDee/count: count stores 1 but dee has 0 followers (+1)"]),
            "\(findings)")
        let explained = try cli.run("check", "--explain", "follower-count", "--schema", "chirp.toml").stdout
        #expect(explained.contains(countingSelf ? "follow of themself is counted" : "declare self = \"counted\""))
        // DuckDB's query counts as check does.
        let sql = try cli.run("sql", "--schema", "chirp.toml").stdout.components(separatedBy: "\n-- ")
        let query = try #require(sql.first { $0.hasPrefix("follower-count ") })
        #expect(query.contains("f.user <> f.target") == !countingSelf, "\(query)")
    }

    @Test func pagesCountFollowersAsTheAuditDoesAndShowTheSelfFollow() throws {
        let cli = try CLI()
        try cli.write(try Self.selfFollowingChirp(), to: "chirp.json")
        let result = try cli.run(
            "build", "chirp.json", "--schema", DeclaredFixtures.folder.appendingPathComponent("chirp.toml").path,
            "--out", "site")
        #expect(result.code == 0 || result.code == 1, "\(result.stderr)")
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cli.url("site/users").path).first {
                $0.hasPrefix("u~44ee")
            })
        let profile = try cli.read("site/users/\(folder)/profile.html")
        #expect(profile.contains("Followers (0)"), "\(profile)")
        #expect(profile.contains("Following (1)"))
        #expect(profile.contains("follows themself"))
        let ada = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cli.url("site/users").path).first {
                $0.hasPrefix("u~41da")
            })
        #expect(!(try cli.read("site/users/\(ada)/profile.html")).contains("follows themself"))
    }
}
