import Foundation
import Testing

/// Comments on the site (docs/site.md), as `fanout build` shows them: from FriendlyPix's real export, and
/// from `Tests/Fixtures/hostile-comments-export.json`, whose comments and commenters' names hold markup, scripts,
/// `javascript:` links, control characters and an unclosed code fence. `make test` also runs the Nu validator and
/// axe-core on both sites.
@Suite struct CommentPagesTests {
    static let friendlypix = CLI.repository.appendingPathComponent("Tests/Fixtures/friendlypix-initial_db.json").path
    static let hostile = CLI.repository.appendingPathComponent("Tests/Fixtures/hostile-comments-export.json").path

    /// The post page showing `key` (`data-post` hook), among the site's files.
    static func postPage(_ cli: CLI, site: String, key: String) throws -> String {
        let pages = try cli.files(under: "\(site)/posts").map { try cli.read("\(site)/posts/\($0)") }
        return try #require(
            pages.first { $0.contains("<article class=\"post\" data-post=\"\(key)\">") }, "no page for \(key)")
    }

    /// The `data-comment` keys of a page, in page order.
    static func commentKeys(_ html: String) -> [String] {
        html.matches(of: /<li class="comment" data-comment="([^"]*)">/).map { String($0.output.1) }
    }

    /// FriendlyPix's post with most comments (8, by two people, one of whom has an empty display name): its page
    /// lists them newest first, as the export's own timestamps order them, each by its author linking to their
    /// profile, and its text as Markdown; the owner's profile card counts them and links to them.
    @Test func friendlyPixPostPagesListCommentsNewestFirst() throws {
        let cli = try CLI()
        let build = try cli.run("build", Self.friendlypix, "--out", "site", "--per-page", "100")
        #expect(build.code == 0, "\(build.stderr)")
        let post = "-K9euzjFOpEFYT5lUZrh"
        // The expected order, from the export itself.
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.friendlypix)))
                as? [String: Any])
        let people = try #require(root["people"] as? [String: [String: Any]])
        let stored = try #require((root["comments"] as? [String: [String: [String: Any]]])?[post])
        let newestFirst = stored.sorted { a, b in
            let (ta, tb) = (a.value["timestamp"] as! Double, b.value["timestamp"] as! Double)
            return ta != tb ? ta > tb : a.key < b.key
        }
        #expect(newestFirst.count == 8)

        let page = try Self.postPage(cli, site: "site", key: post)
        #expect(Self.commentKeys(page) == newestFirst.map(\.key))
        #expect(page.contains("<h2 id=\"comments-heading\">Comments</h2>\n<p class=\"meta\">8 comments</p>"))
        // Each author's folder, found through their timeline's `data-timeline` hook.
        let timelines = try TimelinePages(cli, site: "site")
        let items = page.split(separator: "<li class=\"comment\" ").dropFirst()
        for (item, (_, comment)) in zip(items, newestFirst) {
            let author = comment["author"] as! String
            let name = (people[author]?["displayName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? author
            let folder = try #require(timelines.files[author]?.first).dropLast("index.html".count)
            #expect(
                item.contains(
                    "<p class=\"meta\"><a href=\"../\(folder)profile.html\"><bdi>\(name)</bdi></a> · <time datetime=\""),
                "\(item)")
            #expect(item.contains("<div class=\"comment-text\"><p>\(comment["text"] as! String)</p>"), "\(item)")
        }
        #expect(
            try Self.postPage(cli, site: "site", key: "5742686739787916546").contains(
                "<p class=\"meta\">3 comments</p>"))
        #expect(
            try Self.postPage(cli, site: "site", key: "5761762121033462210").contains("<p class=\"meta\">1 comment</p>")
        )
        #expect(
            try Self.postPage(cli, site: "site", key: "-K9gDb_A2fePL-F-mOni").contains(
                "<p class=\"meta\">No comments yet.</p>"))

        let profile = try cli.read("site/users/05781774870892877580/profile.html")
        #expect(
            profile.contains(
                /<a href="..\/..\/posts\/-~4b9euzj~46~4fp~45~46~59~545l~55~5arh\.html#comments">8 comments<\/a><\/p>/))
        #expect(profile.contains("<span class=\"comment-count\">no comments</span></p>"))
        #expect(
            try cli.read("site/users/05781774870892877580/index.md").contains(
                " · 8 comments · post \\-K9euzjFOpEFYT5lUZrh"))
    }

    /// Comments' texts and their authors' names are shown as text, never as markup: raw HTML and `javascript:`
    /// links are dropped (as from captions), names and keys escaped, characters HTML forbids spelled out, an
    /// unclosed code fence closed inside its comment; comments by users or on posts that do not exist are not
    /// shown.
    @Test func hostileCommentsStayText() throws {
        let cli = try CLI()
        let build = try cli.run("build", Self.hostile, "--out", "site", "--per-page", "2")
        #expect(build.code == 0, "\(build.stderr)")
        var outputs: [(name: String, text: String)] = []
        for file in cli.files(under: "site") where file.hasSuffix(".html") || file.hasSuffix(".md") {
            outputs.append((file, try cli.read("site/\(file)")))
        }
        #expect(outputs.count > 20)
        for output in outputs {
            HostileExportTests.expectTextOnly(output.name, output.text)
            if output.name.hasSuffix(".html") {
                #expect(
                    !output.text.contains("onerror=") && !output.text.contains(" onclick="), "\(output.name): markup")
            }
            #expect(
                !output.text.contains("by someone who does not exist")
                    && !output.text.contains("on a post that does not exist"),
                "\(output.name) shows a comment by no one or on no post")
        }

        let page = try Self.postPage(cli, site: "site", key: "-Kc0000000aaaaaaaaaa")
        #expect(
            Self.commentKeys(page) == [
                "key&quot;&lt;b&gt;&amp;", "-Kd0000004aaaaaaaaaa", "-Kd0000003aaaaaaaaaa", "-Kd0000002aaaaaaaaaa",
                "-Kd0000001aaaaaaaaaa", "-Kd0000006aaaaaaaaaa", "-Kd0000007aaaaaaaaaa",
            ], "newest first; undated (no time, or one of the wrong type) last, by key")
        #expect(page.contains("<p class=\"meta\">7 comments</p>"))
        #expect(
            page.contains(
                "profile.html\"><bdi>&lt;script&gt;alert(1)&lt;/script&gt; *em* [x](javascript:alert(1)) | # h</bdi></a> · "
            ))
        #expect(page.contains("profile.html\"><bdi>quote&quot; onmouseover=&quot;alert(1)</bdi></a> · "))
        #expect(
            page.contains("profile.html\"><bdi>uidNameless</bdi></a> · <span class=\"time\">undated</span>"),
            "an empty name shows the uid")
        #expect(
            page.contains(
                "<div class=\"comment-text\"><p><strong>bold</strong> alert('comment')  inline</p>\n</div></li>"))
        #expect(page.contains("<p>click img <a href=\"https://example.com\">ok</a><br />\nsecond line</p>"))
        #expect(
            page.contains("<pre><code>unclosed fence\n&lt;b&gt;still code&lt;/b&gt;\n</code></pre>\n</div></li>"),
            "the fence ends in its comment")
        #expect(page.contains("ESC \\u{1b}[2J clear, NUL \\u{0}, U+FFFF \\u{ffff}, NEL \\u{85}, DEL \\u{7f}"))
        #expect(page.contains("</li></ul>\n</section>\n\n</main>"), "the page goes on after the comments")
    }
}
