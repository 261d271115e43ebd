import Foundation
import Testing

/// Records of any collection (docs/layouts.md "Records of any collection") beyond the forum and board fixtures:
/// a collection that mirrors the users, and records named by a field of their own.
@Suite struct RecordsCLITests {
    static let export = """
        {
          "users": {"u1": {"username": "ada"}, "u2": {"username": "bob"}, "u3": {"username": "cyd"}},
          "login": {"u1": {"email": "ada@example.com"}, "u2": {"email": "bob@example.com"}, "u9": {"email": "x@example.com"}},
          "groups": {
            "-Ng1": {"gid": "g-chess", "name": "Chess", "memberCount": 2},
            "-Ng2": {"gid": 7, "name": "Go", "memberCount": 0}
          },
          "members": {
            "m1": {"group": "g-chess", "user": "u1", "groupName": "Chess"},
            "m2": {"group": "g-chess", "user": "u2", "groupName": "Chess club"},
            "m3": {"group": 7, "user": "u3", "groupName": "Go"},
            "m4": {"group": "g-gone", "user": "u3"}
          },
          "posts": {}
        }
        """

    static let schema = """
        name = "records"

        [users]
        path = "users/{user}"
        username = "username"

        [records.logins]
        path = "login/{user}"
        fields = { email = "email" }

        [records.groups]
        path = "groups/{group}"
        key = "gid"
        fields = { name = "name" }

        [records.memberships]
        path = "members/{id}"
        fields = { group = "group", user = "user" }

        [[references]]
        name = "login-user"
        at = "login/{user}"
        to = "users"

        [[references]]
        name = "user-login"
        at = "users/{user}"
        to = "logins"

        [[counters]]
        name = "member-count"
        at = "groups/{group}/memberCount"
        counts = "memberships"
        per = "group"

        [[copies]]
        name = "member-group-name"
        at = "members/{id}/groupName"
        of = "groups.name"
        via = "group"

        [[references]]
        name = "member-group"
        at = "members/{id}/group"
        to = "groups"
        """

    /// The declared rules of ``schema``, each of which finds one drift of ``export``.
    static let rules = ["member-count", "member-group", "member-group-name", "login-user", "user-login"]

    @Test func aCollectionMirroringTheUsersAndRecordsKeyedByAFieldAreChecked() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema, to: "app.toml")
        let result = try cli.run("check", "export.json", "--schema", "app.toml", "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
        let findings = (report["findings"] as! [[String: Any]]).map {
            "\($0["rule"]!) \(($0["paths"] as! [String])[0]): \($0["message"]!)"
        }
        #expect(
            findings.sorted()
                == [
                    // The counter is stored in the group's own node, named by its document key, not its gid.
                    "member-count groups/-Ng2/memberCount: memberCount stores 0 but group 7 has 1 membership (-1)",
                    "member-group members/m4/group: group names group g-gone, which does not exist",
                    "member-group-name members/m2/groupName: \"Chess club\" is a stale copy of group g-chess's name \"Chess\"",
                    "login-user login/u9: the row names user u9, which does not exist",
                    "user-login users/u3: the row names login u3, which does not exist",
                ].sorted(), "\(findings)")
    }
}
