import FanoutCLI
import FanoutCore
import Testing

/// The site project file: every key read and checked, errors naming file, line and key.
@Suite struct ProjectConfigTests {
    @Test func readsEveryKey() throws {
        let config = try ProjectConfig.parse(
            """
            # A site project.
            export = "backups/latest.json"
            schema = "makestagram"
            title = "Feeds"
            base_url = "https://feeds.example.com/"
            per_page = 20
            out = "_site"
            fail_on = "warning"

            [rules]
            push-id-time = "off"
            "poster-copy-stale" = "error" # quoted keys are keys too
            """, file: "fanout.toml")
        #expect(
            config
                == ProjectConfig(
                    export: "backups/latest.json", schema: "makestagram", title: "Feeds",
                    baseURL: "https://feeds.example.com/",
                    perPage: 20, out: "_site", failOn: .warning,
                    rules: ["push-id-time": .off, "poster-copy-stale": .severity(.error)]))
    }

    @Test func anEmptyFileSetsNothing() throws {
        #expect(try ProjectConfig.parse("", file: "fanout.toml") == ProjectConfig())
    }

    @Test(arguments: [
        (
            "title = \"x\"\n\n[rules]\npush-id-time = \"off\"\nlike-count-mismatch = \"loud\"\n",
            "fanout.toml:5: [rules] like-count-mismatch = \"loud\": expected off, info, warning or error"
        ),
        (
            "[rules]\nno-such-rule = \"off\"\n",
            "fanout.toml:2: [rules] no-such-rule: unknown rule \"no-such-rule\"; known rules: like-count-mismatch"
        ),
        ("per_page = 0\n", "fanout.toml:1: per_page = 0: expected a whole number from 1 to 100,000"),
        ("titel = \"x\"\n", "fanout.toml:1: unknown key \"titel\"; known keys: export"),
        ("fail_on = \"sometimes\"\n", "fanout.toml:1: fail_on = \"sometimes\": expected error, warning, info or never"),
        ("\n\ntitle = 3\n", "fanout.toml:3: title = 3: expected a string"),
        ("rules = \"off\"\n", "fanout.toml:1: rules: expected a table ([rules])"),
        ("title = \"unclosed\n", "fanout.toml:1: invalid TOML"),
        // TOMLKit hands a key over cut at its NUL and traps on looking the cut key up (found by `make fuzz`:
        // fuzz/regressions/fanout-toml-nul-key.toml).
        ("[\"\\u0000\"]\n", "fanout.toml: a key holding U+0000: such keys are not supported"),
        ("[rules]\n\"a\\u0000b\" = \"off\"\n", "fanout.toml: [rules]: a key holding U+0000 after \"a\""),
        // toml++ asserts rather than reports (fuzz/regressions/toml-header-brace.toml).
        ("title = \"x\"\n[{\n", "fanout.toml:2: invalid TOML: a table header's [ must be followed by a key"),
    ])
    func errorsNameFileLineAndKey(_ text: String, _ message: String) {
        do {
            // A rule Fanout does not have may be a declaration of the schema: it is checked once the schema is known.
            try ProjectConfig.parse(text, file: "fanout.toml").checkRules(schema: nil)
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: ConfigError(file: "nope/fanout.toml", line: nil, message: "cannot read: no such file")) {
            try ProjectConfig.load(path: "nope/fanout.toml")
        }
    }
}
