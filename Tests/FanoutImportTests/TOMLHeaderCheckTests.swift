import FanoutCore
import FanoutImport
import Testing

/// A table header toml++ would abort on instead of reporting (`[{`, `[` alone on its line) is found before it
/// parses, and only at a statement's start: the same bytes inside a value or a comment are TOML's own.
@Suite struct TOMLHeaderCheckTests {
    @Test(arguments: [
        ("[{\"a\": 1}]\n", 1, 1),
        ("name = \"x\"\n\n[\nusers = 1\n", 3, 1),
        ("[[=\n", 1, 1),
        ("a = 1 # [{\n  [ {b]\n", 2, 3),
        ("x = \"[{\"\ny = [1, 2]\n[.\n", 3, 1),
    ])
    func aHeaderWithoutAKey(_ text: String, _ line: Int, _ column: Int) throws {
        let found = try #require(TOMLHeaderCheck.firstBadHeader(in: text))
        #expect(found.line == line && found.column == column)
    }

    @Test(arguments: [
        "[users]\npath = \"users/{uid}\"\n[[counters]]\nname = 'x'\n",
        "a = [\n  [{ x = 1 }],\n  [ {y = 2} ],\n]\n[b]\n",
        "a = \"\"\"\n[{\n\"\"\"\nb = '''\n[\n'''\n",
        "# [{\n[ok] # [{\nk = \"\\\"[{\"\n",
        "[ \"quoted\" ]\n['literal']\n[a.b]\n[]\n",
        "",
    ])
    func validTOMLAndWhatTheLibraryReports(_ text: String) {
        #expect(TOMLHeaderCheck.firstBadHeader(in: text) == nil, "\(text)")
    }

    @Test func schemaFilesAndProjectFilesSayWhere() {
        #expect(throws: InputError.self) { try SchemaFile.parse("[{\n", source: "app.toml", defaultName: "app") }
        do {
            _ = try SchemaFile.parse("name = \"x\"\n[\n", source: "app.toml", defaultName: "app")
        } catch {
            #expect("\(error)".contains("app.toml: invalid TOML at line 2, column 1: a table header's [ must be"))
        }
    }
}
