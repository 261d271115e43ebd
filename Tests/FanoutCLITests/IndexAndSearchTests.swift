import Foundation
import Testing

/// The index's pages, `search.json` and the report's links to pages, on sites the binary builds, read back as a
/// reader (or a crawler following links) would. The expected users come from the export itself
/// (JSONSerialization), not from Fanout.
@Suite struct IndexAndSearchTests {
    /// The rows of an index page: (username, uid, timeline link resolved from the site's root).
    func rows(_ html: String, page: String) -> [(name: String, uid: String, href: String)] {
        html.matches(
            of:
                /<tr><th scope="row"><a href="([^"]*)"><bdi>([^<]*)<\/bdi><\/a>.*?<td class="uid" data-label="UID"><code>([^<]*)<\/code>/
        )
        .map { (String($0.output.2), String($0.output.3), resolve(String($0.output.1), from: page)) }
    }

    /// `href` on the page at `page` (both relative to the site's root), as a path from the root.
    func resolve(_ href: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for part in href.split(separator: "/") {
            if part == ".." { parts.removeLast() } else { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }

    @Test func theIndexIsPaginatedAndEveryUserIsOnItOnceInOrderWithUID() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "75", "--seed", "5", "--out", "export.json").code == 0)
        let build = try cli.run("build", "export.json", "--out", "site", "--per-page", "7")
        #expect(build.code == 0, "\(build.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("export.json"))) as! [String: Any]
        let users = root["users"] as! [String: [String: Any]]
        let pageCount = (users.count + 6) / 7
        #expect(pageCount == 11)

        // Page 1 is index.html, page N page/N/index.html; following "Next" from page 1 visits them all in order.
        var page = "index.html", visited: [String] = [], listed: [(name: String, uid: String, href: String)] = []
        while true {
            visited.append(page)
            let html = try cli.read("site/\(page)")
            let shown = rows(html, page: page)
            #expect(shown.count == (visited.count < pageCount ? 7 : users.count - 7 * (pageCount - 1)), "\(page)")
            listed += shown
            #expect(html.contains("page \(visited.count) of \(pageCount)."), "\(page) says where it is")
            // Every page link of the navigation leads to a page of the index.
            let nav = try #require(html.firstMatch(of: /<nav class="pagination"[\s\S]*?<\/nav>/)).output
            for link in nav.matches(of: /href="([^"]*)"/) {
                let target = resolve(String(link.output.1), from: page)
                #expect(
                    target == "index.html" || target.wholeMatch(of: /page\/[0-9]+\/index\.html/) != nil,
                    "\(page): \(target)")
                #expect(cli.exists("site/\(target)"), "\(page) links \(target)")
            }
            #expect(nav.contains(#"<span aria-current="page">\#(visited.count)</span>"#))
            guard let next = html.firstMatch(of: /<a rel="next" href="([^"]*)">/) else { break }
            page = resolve(String(next.output.1), from: page)
        }
        #expect(visited == ["index.html"] + (2...pageCount).map { "page/\($0)/index.html" })
        #expect(Set(listed.map(\.uid)) == Set(users.keys) && listed.count == users.count, "every user once")
        for row in listed {
            #expect(row.name == users[row.uid]?["username"] as? String ?? row.uid, "\(row.uid)'s name")
            #expect(
                try cli.read("site/\(row.href)").contains(#"data-timeline="\#(row.uid)""#),
                "\(row.href) is \(row.uid)'s timeline")
        }
        #expect(
            listed.map(\.name) == listed.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            "by username")

        // search.json: the same users in the same order, each with the URL of their timeline.
        let search =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("site/search.json"))) as! [[String: String]]
        #expect(search.map { $0["uid"]! } == listed.map(\.uid))
        #expect(search.map { $0["username"]! } == listed.map(\.name))
        #expect(search.map { $0["url"]! } == listed.map(\.href))
        #expect(search.allSatisfy { $0.keys.sorted() == ["uid", "url", "username"] })
        // search-data.js holds the same array for pages opened from disk.
        let script = try cli.read("site/search-data.js")
        #expect(script == "window.fanoutSearchData = " + (try cli.read("site/search.json")).dropLast() + ";\n")
        #expect(cli.exists("site/search.js"))
        #expect(try cli.read("site/index.html").contains(#"<script src="search.js" defer></script>"#))
        #expect(try cli.read("site/page/2/index.html").contains(#"<script src="../../search.js" defer></script>"#))
    }

    /// Long lists link the first and last page and two either side of the current one, not every page.
    @Test func longIndexesLinkAWindowOfPages() throws {
        let cli = try CLI()
        #expect(try cli.run("generate", "--users", "30", "--seed", "5", "--out", "export.json").code == 0)
        #expect(try cli.run("build", "export.json", "--out", "site", "--per-page", "2", "--pages", "index").code == 0)
        let html = try cli.read("site/page/8/index.html")
        let nav = try #require(html.firstMatch(of: /<nav class="pagination"[\s\S]*?<\/nav>/)).output
        let numbers = nav.matches(
            of:
                /<li>(?:<a href="[^"]*">([0-9]+)<\/a>|<span aria-current="page">([0-9]+)<\/span>|<span class="gap">…<\/span>)<\/li>/
        )
        .map { $0.output.1.map(String.init) ?? $0.output.2.map(String.init) ?? "…" }
        #expect(numbers == ["1", "…", "6", "7", "8", "9", "10", "…", "15"], "\(numbers)")
        #expect(nav.contains(#"<a rel="prev" href="../../page/7/index.html">← Previous</a>"#))
        #expect(nav.contains(#"<a rel="next" href="../../page/9/index.html">Next →</a>"#))
        #expect(nav.contains(#"<a href="../../index.html">1</a>"#))
    }

    /// Each finding of the site's report links the profile and timeline of every existing user and the page of
    /// every existing post its database paths name; every link leads to a page of the site.
    @Test func reportFindingsLinkThePagesTheyConcern() throws {
        let cli = try CLI()
        #expect(
            try cli.run("generate", "--users", "40", "--seed", "6", "--defects", "40", "--out", "export.json").code == 0
        )
        #expect(try cli.run("build", "export.json", "--out", "site").code == 0)
        let search =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("site/search.json"))) as! [[String: String]]
        let timelineOf = Dictionary(uniqueKeysWithValues: search.map { ($0["uid"]!, $0["url"]!) })
        let html = try cli.read("site/report.html")
        let findings = html.matches(of: /<li class="finding [\s\S]*?\n<\/li>/).map { String($0.output) }
        #expect(findings.count > 20)
        // Post pages by key, from their `data-post` hooks.
        var postPage: [String: String] = [:]
        for file in cli.files(under: "site/posts") {
            let key = try #require(try cli.read("site/posts/\(file)").firstMatch(of: /data-post="([^"]*)"/)).output.1
            postPage[String(key)] = "posts/\(file)"
        }
        var linkedUsers = 0, linkedPosts = 0
        for finding in findings {
            let paths = finding.matches(of: /<li><code>([^<]*)<\/code><\/li>/).map { String($0.output.1) }
            let hrefs = Set(
                finding.matches(of: /<ul class="finding-pages">(.*)<\/ul>/).flatMap {
                    $0.output.1.matches(of: /href="([^"]*)"/).map { String($0.output.1) }
                })
            for href in hrefs { #expect(cli.exists("site/\(href)"), "\(href) exists") }
            var expected = Set<String>()
            for segment in Set(paths.flatMap { $0.split(separator: "/").map(String.init) }) {
                if let timeline = timelineOf[segment] {
                    expected.formUnion([
                        timeline, timeline.replacingOccurrences(of: "index.html", with: "profile.html"),
                    ])
                    linkedUsers += 1
                }
                if let post = postPage[segment] {
                    expected.insert(post)
                    linkedPosts += 1
                }
            }
            #expect(hrefs == expected, "a finding at \(paths) links \(hrefs.sorted()), expected \(expected.sorted())")
        }
        #expect(linkedUsers > 10 && linkedPosts > 10)
        // report.md links the same pages, as Markdown links.
        let markdown = try cli.read("site/report.md")
        #expect(markdown.contains("\n  - pages: [") && markdown.contains("’s timeline](users/"))
        // The standalone report has no site around it, so no such links.
        let standalone = try cli.run("check", "export.json", "--format", "html", "--fail-on", "never")
        #expect(
            standalone.code == 0 && !standalone.stdout.contains("<ul class=\"finding-pages\">")
                && standalone.stdout.contains("<li class=\"finding"))
    }
}
