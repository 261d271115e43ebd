import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// A three-user site: alice follows bob; carol's name carries a quote joined to a combining accent. With
/// `comments`, the layout has comments and -P1 has three (and one by a user who does not exist).
private func smallSite(comments: Bool = false) -> (Dataset, DerivedData) {
    var schema = Schema(name: "test")
    if comments {
        schema.comments = CommentRelation(pattern: PathPattern("comments/{post}/{id}")!, user: FieldPath("author"))
    }
    var site = DatasetBuilder(schema: schema)
    for (uid, name) in [("u1", "alice"), ("u2", "bob"), ("u3", "carol\"\u{301} onmouseover=alert(1) x=\"")] {
        site.user(uid, name)
    }
    for (key, owner, time) in [("-P1", "u2", 100.0), ("-P2", "u1", 200.0), ("-P3", "u3", 300.0)] {
        let first = key == "-P1"
        site.post(
            key, by: owner, at: time, caption: first ? "*mood* of -P1\nsecond line <b>" : "caption of \(key) <b>",
            imageURL: "https://example.com/\(key).jpg", imageHeight: first ? 310.4 : nil)
    }
    site.follow("u1", "u2")
    site.follow("u1", "u3")
    site.like("-P1", by: "u1")
    site.like("-P1", by: "u3")
    var dataset = site.dataset
    func id(_ key: String) -> KeyID { dataset.keys.intern(key) }
    if comments {
        dataset.comments = [
            Comment(
                id: id("-C1"), post: id("-P1"), user: id("u1"), text: "*first* <script>alert(1)</script>\nline two",
                createdAt: 150),
            Comment(
                id: id("-C2"), post: id("-P1"), user: id("u2"),
                text: "[link](javascript:alert(1)) and [ok](https://example.com)", createdAt: 160),
            Comment(id: id("-C3"), post: id("-P1"), user: id("u3")),
            Comment(id: id("-C4"), post: id("-P1"), user: id("ghost"), text: "by no one", createdAt: 170),
        ]
    }
    return (dataset, DerivedData(dataset))
}

/// Builds the small site's `kinds` with `templates` over the built-in ones, its export changed by `edit`, and
/// returns its files by path.
private func build(
    _ kinds: Set<PageKind>, templates: [String: String] = [:], comments: Bool = false,
    edit: (inout Dataset) -> Void = { _ in }
) throws -> [String: String] {
    var (dataset, _) = smallSite(comments: comments)
    edit(&dataset)
    let derived = DerivedData(dataset)
    let out = try TemporaryFolder("site")
    let builder = SiteBuilder(
        dataset: dataset, derived: derived, audit: AuditResult(findings: [], rulesRun: [], skipped: []),
        options: SiteOptions(exportName: "test.json", pageKinds: kinds, perPage: 2),
        templates: try TemplateSet(overrides: templates.isEmpty ? nil : templateFolder(templates)))
    // Into a folder of its own, so that its cache and marker beside it are in the temporary folder too.
    try builder.build(into: out.path("site"))
    return out.texts(under: "site")
}

@Suite struct SitePageTests {
    /// Cards are rendered when a page shows them, so a template may show any of a post's values, whichever
    /// pages the build writes.
    @Test func timelineTemplatesSeeEveryPostValueWhateverPagesAreBuilt() throws {
        let timeline = "{{#posts}}[{{key}}|{{liked}}|{{count(.)}}|{{{cardMarkdown}}}|{{{heart}}}]\n{{/posts}}"
        let files = try build([.timelines], templates: ["timeline.mustache": timeline])
        let first = try #require(files["users/u1/index.html"])
        let second = try #require(files["users/u1/page-2.html"])
        #expect(first.hasPrefix("[-P3|false|5|## carol"), "\(first)")
        #expect(first.contains("[-P2|false|5|## alice · 1970-01-01 00:03 UTC"))
        #expect(second.hasPrefix("[-P1|true|5|## bob · 1970-01-01 00:01 UTC"), "\(second)")
        #expect(
            second.contains("*mood* of -P1  \nsecond line\n"),
            "the Markdown card keeps the caption's Markdown: \(second)")
        #expect(
            second.contains(#"aria-label="liked by alice">♥"#) && first.contains(#"aria-label="not liked by alice">♡"#))
        #expect(files.keys.allSatisfy { !$0.hasSuffix(".md") })
    }

    /// Built-in timelines, their Markdown twins and profiles show the same cards, made once per post.
    @Test func builtInPagesShowCachedCards() throws {
        let files = try build([.timelines, .markdown, .profiles])
        let html = try #require(files["users/u1/index.html"])
        let markdown = try #require(files["users/u1/index.md"])
        let profile = try #require(files["users/u2/profile.html"])
        #expect(html.contains(#"<article class="post" data-post="-P3">"#) && html.contains("page-2.html"))
        #expect(
            try #require(files["users/u1/page-2.html"]).contains(
                #"<a class="poster" href="../../users/u2/profile.html"><bdi>bob</bdi></a>"#))
        #expect(markdown.contains("## carol") && markdown.contains("♡"))
        #expect(profile.contains(#"<article class="post" data-post="-P1">"#))
        #expect(profile.contains(#"<span class="likers">: alice and carol"#))
    }

    /// A post's page is headed by its poster and time, keeps the key as a detail, says how many like it in words
    /// that agree in number, and links nowhere to itself.
    @Test func postPagesAreHeadedByPosterAndTime() throws {
        let files = try build([.posts])
        func page(_ key: String) throws -> String {
            try #require(files.first { $0.key.hasPrefix("posts/") && $0.value.contains("data-post=\"\(key)\"") }?.value)
        }
        let liked = try page("-P1"), unliked = try page("-P2")
        #expect(
            liked.contains("<h1>bob · 1970-01-01 00:01 UTC</h1>")
                && liked.contains("<title>bob · 1970-01-01 00:01 UTC · Fanout</title>"))
        #expect(liked.contains("<code class=\"key\">-P1</code>"))
        #expect(liked.contains("<h2 id=\"likers-heading\">Liked by 2 users</h2>"))
        #expect(
            unliked.contains("<h2 id=\"likers-heading\">Likes</h2>") && unliked.contains("Nobody likes this post yet."))
        #expect(!unliked.contains("no likes</a>") && !liked.contains("likes</a>"), "the like count links nowhere here")
        for text in [liked, unliked] {
            #expect(!text.contains("href=\"../posts/"), "no link to a post page, this one included")
        }
    }

    /// Cards: the like count links to the post's page only when there are likes; the photo reserves the shape
    /// `image_height` gives it; the caption's line breaks show.
    @Test func cardsReserveThePhotoAndLinkOnlyWhatIsThere() throws {
        let files = try build([.timelines])
        let alice = try #require(files["users/u1/index.html"]) + (try #require(files["users/u1/page-2.html"]))
        #expect(alice.contains("<span class=\"like-count\">no likes</span>") && !alice.contains(">no likes</a>"))
        #expect(alice.contains(">2 likes</a><span class=\"likers\">: alice and carol"))
        #expect(alice.contains("alt=\"Photo posted by bob\" width=\"414\" height=\"310\" loading=\"lazy\">"))
        #expect(alice.contains("alt=\"Photo posted by alice\" loading=\"lazy\">"), "no height, no reservation")
        #expect(alice.contains("<p><em>mood</em> of -P1<br />\nsecond line </p>"))
        #expect(alice.contains("<a class=\"permalink\" href=\"../../posts/"), "the time links to the post's page")
    }

    @Test func usernamesCannotBreakOutOfAttributes() throws {
        let files = try build([.timelines])
        let alice = try #require(files["users/u1/index.html"])
        // Held in a variable: #expect quotes its expression's source, which a quote and an accent would break.
        let unescaped = "\"\u{301} onmouseover"
        #expect(!alice.contains(unescaped))
        let escaped = "alt=\"Photo posted by carol&quot;\u{301} onmouseover=alert(1) x=&quot;\""
        #expect(alice.contains(escaped))
    }

    /// Where the layout has comments, a post's page lists them newest first (authors linked, text rendered as
    /// captions are, undated last) under a count, and cards count them on the likes' line, linking to that list
    /// except on the post's own page (docs/site.md).
    @Test func postPagesListCommentsAndCardsCountThem() throws {
        let files = try build([.posts, .timelines, .markdown], comments: true)
        func post(_ key: String) throws -> String {
            try #require(files.first { $0.key.hasPrefix("posts/") && $0.value.contains("data-post=\"\(key)\"") }?.value)
        }
        let page = try post("-P1"), empty = try post("-P2")
        #expect(
            page.contains(
                "<section id=\"comments\" aria-labelledby=\"comments-heading\">\n<h2 id=\"comments-heading\">Comments</h2>\n<p class=\"meta\">3 comments</p>"
            ), "\(page)")
        let order = ["-C2", "-C1", "-C3"].map { page.range(of: "data-comment=\"\($0)\"")?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted(),
            "newest first, undated last")
        #expect(!page.contains("-C4") && !page.contains("by no one"), "a comment by no existing user is not shown")
        #expect(
            page.contains(
                "<a href=\"../users/u1/profile.html\"><bdi>alice</bdi></a> · <time datetime=\"1970-01-01T00:02:30Z\">1970-01-01 00:02 UTC</time>"
            ))
        #expect(
            page.contains("<div class=\"comment-text\"><p><em>first</em> alert(1)<br />\nline two</p>"),
            "Markdown, line breaks kept, raw HTML dropped: \(page)")
        #expect(page.contains("<p>link and <a href=\"https://example.com\">ok</a></p>"))
        #expect(page.contains("<span class=\"time\">undated</span></p></li>"), "no text, no time")
        #expect(!page.contains("<script") && !page.contains("javascript:"))
        #expect(
            page.contains("<span class=\"comment-count\">3 comments</span></p>"),
            "the count on its own page links nowhere")
        #expect(empty.contains("<p class=\"meta\">No comments yet.</p>\n<ul class=\"comments\"></ul>"))
        let timeline = try #require(files["users/u1/index.html"]) + (try #require(files["users/u1/page-2.html"]))
        #expect(
            timeline.contains(/\ · <a href="..\/..\/posts\/-~501\.html#comments">3 comments<\/a><\/p>/),
            "\(timeline)")
        #expect(timeline.contains(" · <span class=\"comment-count\">no comments</span></p>"))
        let markdown = try #require(files["users/u1/page-2.md"])
        #expect(markdown.contains(#" · 3 comments · post \-P1"#), "\(markdown)")
    }

    /// A layout without comments shows nothing of them: no section, no count on cards.
    @Test func layoutsWithoutCommentsShowNoneOfThem() throws {
        let files = try build([.posts, .timelines, .markdown])
        for (path, text) in files where path.hasSuffix(".html") || path.hasSuffix(".md") {
            #expect(!text.contains("comment"), "\(path)")
        }
    }

    /// The posts a user liked: newest first, `--per-page` a page with page links, each as its card with the
    /// user's heart, a Markdown twin each; a like of a post that does not exist is not shown, a user who liked
    /// nothing gets a page that says so; the profile links to them.
    @Test func likedPagesListTheUsersLikesNewestFirst() throws {
        let files = try build([.liked, .markdown, .profiles]) { dataset in
            let (alice, ghost) = (dataset.keys.intern("u1"), dataset.keys.intern("-gone"))
            dataset.likes += [
                Like(post: dataset.keys.intern("-P2"), user: alice),
                Like(post: dataset.keys.intern("-P3"), user: alice),
                Like(post: ghost, user: alice), Like(post: dataset.keys.intern("-P3"), user: alice),
            ]
        }
        let first = try #require(files["users/u1/liked.html"]), second = try #require(files["users/u1/liked-2.html"])
        func posts(_ html: String) -> [String] { html.matches(of: /data-post="([^"]*)"/).map { String($0.output.1) } }
        #expect(posts(first) == ["-P3", "-P2"] && posts(second) == ["-P1"], "newest first, two a page")
        #expect(
            first.contains("<title>Posts alice liked · Fanout</title>")
                && first.contains("<h1>Posts <bdi>alice</bdi> liked</h1>"))
        #expect(second.contains("<title>Posts alice liked (page 2 of 2) · Fanout</title>"))
        #expect(first.contains("<p class=\"meta\">3 posts, newest first · posts 1–2, page 1 of 2 · "), "\(first)")
        #expect(
            first.contains("<a rel=\"next\" href=\"liked-2.html\">")
                && second.contains("<a rel=\"prev\" href=\"liked.html\">"))
        #expect(
            first.components(separatedBy: #"aria-label="liked by alice">♥"#).count == 3, "every card with alice's heart"
        )
        #expect(!first.contains("data-timeline="), "not a timeline page")
        let markdown = try #require(files["users/u1/liked.md"])
        #expect(
            markdown.hasPrefix("# Posts alice liked\n\n3 posts, newest first (posts 1–2).")
                && markdown.contains("## carol"))
        #expect(markdown.contains("[2](liked-2.md)") && files["users/u1/liked-2.md"] != nil)
        let bob = try #require(files["users/u2/liked.html"])
        #expect(
            bob.contains("<p class=\"empty\"><bdi>bob</bdi> has not liked any post yet.</p>")
                && files["users/u2/liked-2.html"] == nil)
        #expect(try #require(files["users/u1/profile.html"]).contains("<a href=\"liked.html\">liked posts</a>"))
        #expect(
            files["users/u1/index.md"] != nil && files["users/u1/index.html"] == nil,
            "`markdown` chooses every Markdown twin")
    }

    /// A liked page's input key (docs/site.md "Rebuilds, progress and timings") changes when the user's likes
    /// change or a post on it changes, and not when anything else does: a rebuild renders it then, and only then.
    @Test func likedPagesAreRenderedAgainWhenTheirLikesOrPostsChangeOnly() throws {
        func keys(_ edit: (inout Dataset) -> Void) throws -> [String: UInt64] {
            var (dataset, _) = smallSite()
            edit(&dataset)
            let pages = try SitePages(
                dataset: dataset, derived: DerivedData(dataset),
                audit: AuditResult(findings: [], rulesRun: [], skipped: []),
                options: SiteOptions(exportName: "test.json", perPage: 2), templates: try TemplateSet())
            let liked = [PageDeclarations.positions["liked"]!, PageDeclarations.positions["liked.md"]!]
            return Dictionary(
                uniqueKeysWithValues: try pages.jobs.filter { liked.contains($0.kind) }.map { job in
                    let path = pages.renderer.path(of: job)
                    return (path, try #require(pages.renderer.inputKey(job, path: path), "a key from the page's data"))
                })
        }
        func changed(_ edit: (inout Dataset) -> Void) throws -> Set<String> {
            let (before, after) = (try keys { _ in }, try keys(edit))
            #expect(Set(before.keys).isSubset(of: after.keys) || Set(after.keys).isSubset(of: before.keys))
            return Set(after.keys.filter { before[$0] != after[$0] })
        }
        let alice: Set = ["users/u1/liked.html", "users/u1/liked.md"],
            carol: Set = ["users/u3/liked.html", "users/u3/liked.md"]
        // alice likes -P1 and so does carol; bob likes nothing.
        #expect(try changed { $0.likes.append(Like(post: $0.keys.intern("-P2"), user: $0.keys.intern("u1"))) } == alice)
        #expect(
            try changed { d in
                let u1 = d.keys.lookup("u1")
                d.likes.removeAll { $0.user == u1 }
            } == alice.union(carol), "alice's like gone from her page, and from -P1's count on carol's")
        #expect(
            try changed { $0.posts[0].caption = "recaptioned" } == alice.union(carol), "-P1, on both pages, changed")
        #expect(try changed { $0.posts[1].caption = "recaptioned" }.isEmpty, "-P2 is on no liked page")
        #expect(
            try changed { $0.following.append(Follow(user: $0.keys.intern("u2"), target: $0.keys.intern("u3"))) }
                .isEmpty)
        let bob: Set = ["users/u2/liked.html", "users/u2/liked.md"]
        #expect(
            try changed { $0.users[1].username = "robert" } == alice.union(bob).union(carol),
            "bob's page is titled with his name, and he posted -P1")
        #expect(
            try changed { $0.users[0].username = "alicia" }.contains("users/u1/liked.html"),
            "alice's own page is titled with her name")
    }
}
