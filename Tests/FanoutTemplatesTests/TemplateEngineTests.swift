import FanoutTestSupport
import Foundation
import Mustache
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// swift-mustache's own HTML escaping, as of 2.1.1: per `Character`, through a table of five entities.
private func characterEscape(_ text: String) -> String {
    let table: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
    return text.map { table[$0] ?? String($0) }.joined()
}

@Suite struct HTMLTextTests {
    @Test func escapesTheFiveCharactersWithSwiftMustachesEntities() {
        #expect(
            HTMLText.escape(#"<a href="x">Tom & Jerry's</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTMLText.escape("") == "")
        #expect(HTMLText.escape("plain ✓ text 🎉") == "plain ✓ text 🎉")
    }

    @Test func agreesWithSwiftMustacheWhereEveryMarkupCharacterStandsAlone() {
        let samples = [
            "alice", "<script>alert(1)</script>", "a&b&&c", "\"'\"'", "é<é>é", "👩‍👩‍👧 & <3", "line\nbreak\r\n<",
            "tab\t&\u{A0}nbsp", String(repeating: "<&>", count: 100), "caf\u{65}\u{301} & thé",
        ]  // No control characters: those are spelled out, where swift-mustache lets them through (TextTests).
        for text in samples {
            #expect(HTMLText.escape(text) == characterEscape(text), "\(text.debugDescription)")
        }
    }

    /// A combining mark after a quote makes one `Character` of both, which swift-mustache's table does not match:
    /// the quote would close the attribute and the rest of the username would add an event handler.
    @Test func escapesMarkupCharactersThatStartAGraphemeCluster() {
        let username = "bob\"\u{301} onmouseover=alert(1) x=\""
        let unescaped = "bob\"\u{301} onmouseover"  // not inside #expect, which quotes its source
        #expect(characterEscape(username).contains(unescaped), "swift-mustache's own escaping misses it")
        let escaped = HTMLText.escape(username)
        #expect(escaped == "bob&quot;\u{301} onmouseover=alert(1) x=&quot;")
        #expect(HTMLText.escape("<\u{338}b>") == "&lt;\u{338}b&gt;")
        #expect(HTMLText.escape("\u{600}<'\u{200D}&\u{20D2}") == "\u{600}&lt;&#39;\u{200D}&amp;\u{20D2}")
    }

    @Test func templatesEscapeWithIt() throws {
        let set = try TemplateSet(overrides: templateFolder(["t.mustache": #"<img alt="{{name}}">{{{name}}}"#]))
        let name = "x\"\u{301} onerror=alert(1) '<>&"
        #expect(try set.render(["name": name], template: "t") == "<img alt=\"\(HTMLText.escape(name))\">\(name)")
    }
}

@Suite struct TemplatePragmaTests {
    /// Templates covering what a pragma line in front could disturb: standalone tags and their lines, indented
    /// partials, inheritance with and without overridden blocks, comments, delimiters, Markdown partials.
    static let files: [String: String] = [
        "t-standalone.mustache":
            "{{#list}}\n  {{name}}\n{{/list}}\n{{^none}}\n  none\n{{/none}}\n{{! a comment }}\nend\n",
        "t-leading.mustache": "  {{#flag}}\n    indented\n  {{/flag}}\ntext {{name}}",
        "t-partial.mustache": "before\n  {{>t-leading}}\nafter {{>t-inline}}!\n",
        "t-inline.mustache": "[{{name}}]",
        "t-parent.mustache":
            "<html>\n{{$head}}<title>{{title}}</title>{{/head}}\n<body>\n  {{$body}}default body{{/body}}\n</body>\n",
        "t-child.mustache": "{{<t-parent}}\n{{$body}}\n<p>{{title}} & {{{raw}}}</p>\n{{/body}}\n{{/t-parent}}\n",
        "t-grandchild.mustache": "{{<t-child}}\n{{$head}}<title>new {{title}}</title>{{/head}}\n{{/t-child}}",
        "t-delims.mustache": "{{=<% %>=}}\n<% title %> {{not a tag}}\n<%={{ }}=%>\n{{title}}\n",
        "t-md.mustache": "{{%CONTENT_TYPE:MARKDOWN}}\n# {{title}}\n{{>t-inline}} {{>t-md-partial}}\n",
        "t-md-partial.mustache": "{{%CONTENT_TYPE:MARKDOWN}}\n*{{name}}*",
        "t-crlf.mustache": "{{#flag}}\r\nline {{title}}\r\n{{/flag}}\r\n",
        "t-empty.mustache": "",
    ]

    nonisolated(unsafe) static let context: [String: Any] = [
        "title": "<Title & \"quotes\">", "raw": "<b>raw</b>", "name": "O'Brien <x>", "flag": true,
        "list": [["name": "a<b"], ["name": "c&d"]], "none": [Any](),
    ]

    @Test func pragmaLineLeavesEveryTemplateRenderingAsSwiftMustacheDoes() throws {
        MarkdownContentType.registerOnce()
        let set = try TemplateSet(overrides: templateFolder(Self.files))
        var plain = MustacheLibrary()
        for (name, text) in Self.files { try plain.register(text, named: String(name.dropLast(".mustache".count))) }
        for name in Self.files.keys.sorted() {
            let template = String(name.dropLast(".mustache".count))
            let expected = try #require(plain.render(Self.context, withTemplate: template))
            #expect(try set.render(Self.context, template: template) == expected, "\(name)")
        }
    }

    @Test func parseErrorsGiveTheFilesOwnLineNumbers() throws {
        let text = "line one\nline two\n{{#open}} never closed\n"
        let folder = try templateFolder(["page.mustache": text])
        #expect(
            throws: RenderError.templateLine(
                file: folder + "/page.mustache", line: 3, message: "section \"open\" is never closed (no {{/open}})")
        ) {
            try TemplateSet(overrides: folder)
        }
    }

    /// Each kind of syntax error, as the line it is on and what is wrong in the template's terms.
    @Test func syntaxErrorsAreDescribedNotDumped() throws {
        let cases: [(String, Int, String)] = [
            ("{{<layout}}\n{{$body}}\n<p>x</p>\n{{/bod}}\n{{/layout}}\n", 4, "section \"body\" closed by \"/bod\""),
            ("a {{#outer}}\n  b {{^inner}} c {{/outr}}\n", 2, "section \"inner\" closed by \"/outr\""),
            ("{{/stray}}\n", 1, "\"/stray\" closes no open section"),
            ("one\n{{#a}}\n{{#b}}\n{{/b}}\n", 2, "section \"a\" is never closed (no {{/a}})"),
            ("one\ntwo {{name\n", 2, "tag not closed: \"}}\" missing"),
            ("{{a b}}\n", 1, "malformed tag: expected a name (letters, digits, _ - . ?) and then \"}}\""),
            (
                "{{<layout}}\n{{name}}\n{{/layout}}\n", 2,
                "only blocks ({{$name}}…{{/name}}) may stand directly inside a parent ({{<name}}…{{/name}})"
            ),
        ]
        for (text, line, message) in cases {
            let folder = try templateFolder(["page.mustache": text])
            do {
                _ = try TemplateSet(overrides: folder)
                Issue.record("no error for \(text.debugDescription)")
            } catch {
                #expect(
                    error == .templateLine(file: folder + "/page.mustache", line: line, message: message), "\(text)")
                #expect(!"\(error)".contains("Mustache.") && !"\(error)".contains("ParserError"))
            }
        }
    }
}

@Suite struct TemplateValueTests {
    /// Strings, numbers and booleans render and open sections as swift-mustache's fallbacks did.
    @Test func scalarsRenderAsBefore() throws {
        let set = try TemplateSet(
            overrides: templateFolder([
                "t.mustache":
                    "{{s}}|{{{s}}}|{{n}}|{{b}}|{{#s}}in {{s}} {{other}}{{/s}}|{{#e}}empty opens{{/e}}|{{^e}}no{{/e}}"
                    + "|{{#z}}zero {{z}} opens{{/z}}|{{#s}}{{s.count}}{{nothing.deeper}}{{/s}}|{{#b}}yes{{/b}}{{^f}}not{{/f}}"
            ]))
        let context: [String: Any] = ["s": "a<b", "n": 42, "b": true, "f": false, "e": "", "z": 0, "other": "o"]
        #expect(
            try set.render(context, template: "t") == "a&lt;b|a<b|42|true|in a&lt;b o|empty opens||zero 0 opens||yesnot"
        )
    }

    static var card: PostCard {
        PostCard(
            root: "../../", key: "-K1", postHref: "posts/-k1.html", likesHref: "posts/-k1.html", posterName: "alice <3",
            likeCount: 2, likeCountText: "2 likes", likersSummary: "bob and carol", profileHref: nil, flagged: true,
            isoTime: nil, displayTime: "undated", imageURL: "https://x/y.jpg", imageHeight: 300,
            caption: Caption("hi *there*\nyou"),
            storedLikeCount: 5, commentCount: 3, commentsHref: "posts/-k1.html#comments")
    }

    /// The structs pages use in place of dictionaries look the same to any template.
    @Test func postCardBehavesAsItsDictionary() throws {
        let dictionary = Self.card.dictionary
        #expect(dictionary["profileHref"] == nil && dictionary["isoTime"] == nil)
        #expect(dictionary["storedCountDiffers"] as? Bool == true && dictionary["flagged"] as? Bool == true)
        #expect(dictionary.count == PostCard.names.count - 2)
        let set = try TemplateSet(
            overrides: templateFolder([
                "t.mustache": PostCard.names.map { "\($0)={{\($0)}};{{#\($0)}}+{{/\($0)}}{{^\($0)}}-{{/\($0)}}" }
                    .joined()
                    + "{{count(.)}}{{#empty(.)}}E{{/empty(.)}}{{#sorted(.)}}{{key}},{{/sorted(.)}}"
            ]))
        #expect(try set.render(Self.card, template: "t") == set.renderAny(dictionary, template: "t"))
        #expect(try set.render(Self.card, template: "post-card") == set.renderAny(dictionary, template: "post-card"))
        var unflagged = Self.card
        unflagged.flagged = false
        unflagged.storedLikeCount = nil
        unflagged.commentCount = nil
        #expect(unflagged.dictionary["flagged"] == nil && unflagged.dictionary["storedCountDiffers"] == nil)
        #expect(unflagged.dictionary["commentCount"] == nil && unflagged.dictionary["commentCountText"] == nil)
    }
}

@Suite struct PostItemTests {
    /// Pages hand swift-mustache every post as an `Any`, which holds up to three words without a heap box.
    @Test func fitsInAnAnyWithoutABox() {
        #expect(MemoryLayout<PostItem>.size <= 3 * MemoryLayout<Int>.size)
    }
}

extension TemplateSet {
    /// Renders any value, as the site's struct views are rendered, for comparing them with dictionaries.
    fileprivate func renderAny(_ value: Any, template: String) throws -> String {
        if let values = value as? [String: Any] { return try render(values, template: template) }
        return try render(value as! PostCard, template: template)
    }
}
