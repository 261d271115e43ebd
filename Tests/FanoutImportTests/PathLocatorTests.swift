import FanoutCore
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

/// The second pass that finds where findings' paths are in the export (docs/reports.md): each path at its
/// last key's opening quote, a missing path at its nearest ancestor.
@Suite struct PathLocatorTests {
    /// Where each path is in `text`, as `line:column`.
    func locate(_ paths: [String], in text: String) throws -> [String: String] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { buffer in
            try PathLocator.locate(paths, in: buffer).mapValues { "\($0.line):\($0.column)" }
        }
    }

    @Test func findsKeysInAPrettyPrintedExport() throws {
        let text = """
            {
              "users": {"u1": {"username": "a"}},
              "posts": {
                "u1": {
                  "p1": {"like_count": 3, "poster": {"username": "old"}}
                }
              }
            }
            """
        let found = try locate(
            ["posts/u1/p1/like_count", "posts/u1/p1/poster/username", "users/u1", "posts"], in: text)
        #expect(found["posts/u1/p1/like_count"] == "5:14")
        #expect(found["posts/u1/p1/poster/username"] == "5:42")
        #expect(found["users/u1"] == "2:13")
        #expect(found["posts"] == "3:3")
    }

    @Test func aMissingPathIsAtItsNearestAncestor() throws {
        let text = "{\"timeline\": {\"u1\": {\"p1\": true}}, \"users\": {}}"
        let found = try locate(["timeline/u1/p9", "timeline/u2/p1", "followers/u1/u2"], in: text)
        #expect(found["timeline/u1/p9"] == "1:15", "the user's timeline, u1")
        #expect(found["timeline/u2/p1"] == "1:2", "the timeline key")
        #expect(found["followers/u1/u2"] == "1:1", "no followers at all: the document")
    }

    @Test func columnsCountScalarsOnOneLongLine() throws {
        // A minified export is one line; non-ASCII before the key must not shift the column.
        let text = "{\"users\":{\"u1\":{\"username\":\"émile 🌅\"},\"u2\":{\"username\":\"b\"}}}"
        let found = try locate(["users/u2/username", "users/u1"], in: text)
        let scalars = Array(text.unicodeScalars)
        let column = try #require(Int(found["users/u2/username"]!.split(separator: ":")[1]))
        #expect(String(String.UnicodeScalarView(scalars[(column - 1)...].prefix(10))) == "\"username\"")
        #expect(found["users/u2/username"]?.hasPrefix("1:") == true)
        #expect(found["users/u1"] == "1:11")
    }

    @Test func arraysEscapedKeysAndKeysWithSlashes() throws {
        let text = """
            {"posts": [null, {"a": 1},
              {"like_count": 2}],
             "users": {"\\u0075\\u0031": {"username": "x"}, "bad/key": {"username": "y"}}}
            """
        let found = try locate(
            ["posts/2/like_count", "posts/1", "users/u1/username", "users/bad/key/username", "users/bad/key"], in: text)
        #expect(found["posts/2/like_count"] == "2:4", "a Firebase array: index 2, null holes counted")
        #expect(found["posts/1"] == "1:18", "an element is found at its first byte")
        #expect(found["users/u1/username"] == "3:29", "the key as the reader unescapes it")
        #expect(found["users/bad/key"] == "3:47", "a key holding a slash, as key-invalid names it")
        #expect(found["users/bad/key/username"] == "3:59")
    }

    @Test func aByteOrderMarkAndCRLFDoNotShiftColumns() throws {
        let text = "\u{FEFF}{\"a\": 1,\r\n \"b\": {\"c\": 2}}"
        let found = try locate(["a", "b/c"], in: text)
        #expect(found["a"] == "1:2")
        #expect(found["b/c"] == "2:8")
    }

    @Test func stopsEarlyButStillSettlesEveryPath() throws {
        // Everything after the last wanted key is never read: a syntax error there goes unnoticed, which
        // shows that the pass stopped (the first pass has validated the document already).
        let found = try locate(["a/x", "a/y", "b"], in: "{\"a\": {\"x\": 1}, \"b\": 2, \"c\": [tru")
        #expect(found == ["a/x": "1:8", "a/y": "1:2", "b": "1:17"])
    }

    @Test func parseFolderRowsAndFieldsAreFoundInTheirClassFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "{\"results\": [\n  {\"objectId\": \"u1\", \"username\": \"a\"}\n]}\n", to: "export/_User.json")
        try folder.write(
            """
            [
              {"objectId": "p1", "user": {"__type": "Pointer", "className": "_User", "objectId": "u1"},
               "createdAt": "2017-03-21T18:02:36.786Z"},
              {"createdAt": "2017-03-22T09:00:00Z",
               "objectId": "p2"}
            ]
            """, to: "export/Post.json")
        let findings = [
            Finding(rule: "post-unknown-poster", severity: .error, message: "", paths: ["Post/p2"]),
            Finding(rule: "push-id-time", severity: .info, message: "", paths: ["Post/p1/createdAt"]),
            Finding(rule: "like-unknown-user", severity: .error, message: "", paths: ["Post/p9"]),
            Finding(rule: "like-unknown-user", severity: .error, message: "", paths: ["Like/l1"]),
        ]
        let located = try FindingLocator.locate(findings, path: folder.path("export"), bytes: nil, name: "ignored")
        let post = folder.path("export/Post.json")
        #expect(located[0].location == SourceLocation(file: post, line: 4, column: 3), "the row's {")
        #expect(located[1].location == SourceLocation(file: post, line: 3, column: 4), "the field's key")
        #expect(
            located[2].location == SourceLocation(file: post, line: 1, column: 1), "a row not in the file: its start")
        #expect(located[3].location == nil, "no Like.json")
    }

    @Test func aParseZipHasNoLocationsAndAJSONExportIsNamedAsGiven() throws {
        let folder = try TemporaryFolder()
        try folder.write("[{\"objectId\": \"p1\"}]", to: "z/Post.json")
        try folder.run("python3", "-c", "import shutil; shutil.make_archive('export', 'zip', '.', 'z')")
        let finding = Finding(rule: "post-unknown-poster", severity: .error, message: "", paths: ["Post/p1"])
        #expect(
            try FindingLocator.locate([finding], path: folder.path("export.zip"), bytes: nil, name: "x")[0].location
                == nil)

        try folder.write("{\"posts\": {\"p1\": {}}}", to: "e.json")
        let json = Finding(rule: "post-field", severity: .error, message: "", paths: ["posts/p1"])
        let located = try FindingLocator.locate([json], path: folder.path("e.json"), bytes: nil, name: "backups/e.json")
        #expect(located[0].location == SourceLocation(file: "backups/e.json", line: 1, column: 12))
    }
}
