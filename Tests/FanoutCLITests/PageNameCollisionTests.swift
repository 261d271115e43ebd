import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite

/// Two users can share one page no more: two users (and two posts) whose keys had one file name under the old
/// 48-bit hash, built and served by the binary (docs/site.md "File names").
@Suite(.serialized) struct PageNameCollisionTests {
    /// Makestagram: the victim, the attacker whose keys collided with the victim's under the old names, and carol,
    /// who follows both. Each of the two has a post whose key is their own uid, colliding the same way.
    static func export() throws -> (text: String, victim: String, attacker: String) {
        let keys = OldFileNames.collisions[0]
        #expect(OldFileNames.name(keys[0]) == OldFileNames.name(keys[1]), "the premise")
        let (victim, attacker) = (keys[0], keys[1])
        func post(_ owner: String, _ name: String, _ time: Int) -> [String: Any] {
            [
                "created_at": time, "image_url": "https://example.com/\(name).jpg", "image_height": 300,
                "like_count": 0, "poster": ["uid": owner, "username": name], "caption": "posted by \(name)",
            ]
        }
        let tree: [String: Any] = [
            "users": [
                victim: ["username": "victim"], attacker: ["username": "attacker"], "carol": ["username": "carol"],
            ],
            "posts": [
                victim: [victim: post(victim, "victim", 1_490_119_356)],
                attacker: [attacker: post(attacker, "attacker", 1_490_130_156)],
            ],
            "following": ["carol": [victim: true, attacker: true]],
            "followers": [victim: ["carol": true], attacker: ["carol": true]],
            "timeline": [
                "carol": [victim: ["poster_uid": victim], attacker: ["poster_uid": attacker]],
                victim: [victim: ["poster_uid": victim]], attacker: [attacker: ["poster_uid": attacker]],
            ],
        ]
        let data = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys])
        return (String(decoding: data, as: UTF8.self), victim, attacker)
    }

    @Test func usersWhoseOldNamesCollidedGetTheirOwnPagesInBuildAndServe() throws {
        let cli = try CLI()
        let (text, victim, attacker) = try Self.export()
        try cli.write(text, to: "export.json")
        let build = try cli.run("build", "export.json", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let (victimName, attackerName) = (SafeFileName.forKey(victim), SafeFileName.forKey(attacker))
        #expect(victimName != attackerName)
        let files = cli.files(under: "site")
        for (name, username) in [(victimName, "victim"), (attackerName, "attacker")] {
            let timeline = try cli.read("site/users/\(name)/index.html")
            #expect(timeline.contains("<title>\(username)’s timeline"), "\(name): its own user's page")
            let post = try cli.read("site/posts/\(name).html")
            #expect(post.contains("posted by \(username)"), "posts/\(name).html: its own post")
        }
        #expect(!files.contains { $0.contains(OldFileNames.name(victim)) }, "no page under the old name")
        // The index and carol's timeline link each user's and each post's own page.
        let index = try cli.read("site/index.html")
        for (name, username) in [(victimName, "victim"), (attackerName, "attacker")] {
            #expect(index.contains(try Regex("href=\"users/\(name)/index.html\">(<bdi>)?\(username)<")), "\(username)")
        }
        let carol = try cli.read("site/users/carol/index.html")
        for (name, username) in [(victimName, "victim"), (attackerName, "attacker")] {
            #expect(
                carol.contains(try Regex("href=\"../../users/\(name)/profile.html\">(<bdi>)?\(username)<")),
                "\(username)")
        }

        let server = try ServeProcess(cli, ["export.json"])
        for file in files where file.contains(victimName) || file.contains(attackerName) {
            let response = try server.request("/" + file)
            let built = try Data(contentsOf: cli.url("site/" + file))
            #expect(response.status == 200, "/\(file)")
            #expect(ServeTests.withoutScript(response, path: file) == built, "/\(file) served is the file built")
        }
        for (uid, name) in [(victim, victimName), (attacker, attackerName)] {
            let found = try server.request("/u/\(uid)")
            #expect(found.header("Location")?.hasSuffix("/users/\(name)/index.html") == true, "/u/\(uid)")
        }
        #expect(try server.request("/users/\(OldFileNames.name(victim))/index.html").status == 404)
        let stop = server.stop()
        #expect(stop.reason == .exit && stop.status == 0, "\(stop)")
    }

    /// A rebuild over a site of the old names replaces their pages with the new ones and deletes the old files.
    @Test func aRebuildOverOldNamesLeavesOnlyTheNewOnes() throws {
        let cli = try CLI()
        let (text, victim, _) = try Self.export()
        try cli.write(text, to: "export.json")
        #expect(try cli.run("build", "export.json", "--out", "site").code == 0)
        let clean = cli.files(under: "site")
        // The old site: the victim's pages moved to their old name, as an older Fanout wrote them, manifest and all.
        let (new, old) = (SafeFileName.forKey(victim), OldFileNames.name(victim))
        let fileManager = FileManager.default
        try fileManager.moveItem(at: cli.url("site/users/\(new)"), to: cli.url("site/users/\(old)"))
        try fileManager.moveItem(at: cli.url("site/posts/\(new).html"), to: cli.url("site/posts/\(old).html"))
        let manifestFile = CLI.cache(of: "site") + "/manifest"
        let manifest = try cli.read(manifestFile).split(separator: "\n").map {
            $0.replacing("users/\(new)/", with: "users/\(old)/").replacing(
                "posts/\(new).html", with: "posts/\(old).html")
        }
        let lines =
            [manifest[0]]
            + manifest.dropFirst().sorted {
                $0.split(separator: " ")[2].utf8.lexicographicallyPrecedes($1.split(separator: " ")[2].utf8)
            }
        try cli.write(lines.joined(separator: "\n") + "\n", to: manifestFile)
        let rebuild = try cli.run("build", "export.json", "--out", "site")
        #expect(rebuild.code == 0, "\(rebuild.stderr)")
        #expect(cli.files(under: "site") == clean, "the old names' files are gone, the new ones written")
        #expect(!cli.exists("site/users/\(old)"), "the old folder is gone")
    }
}
