import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// `xmllint`, when installed (`make test` installs it first, with the other test dependencies).
private let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// A sitemap past the protocol's 50,000 URLs becomes a sitemap index of files of at most 50,000 each
/// (docs/site.md "Pages, feeds and the sitemap"). The limit is lowered here so that a site of a few dozen pages splits;
/// the same code splits at 50,000.
@Suite struct SitemapIndexTests {
    /// A site of `users` users, each with one post, built with the sitemap limit lowered to `limit`; also the same
    /// site's pages as `serve` renders them by path (``SitePages``).
    func build(users: Int, limit: Int) throws -> (folder: TemporaryFolder, files: [String: String]) {
        try site(users: users, limit: limit).built
    }

    func site(users: Int, limit: Int) throws -> (
        built: (folder: TemporaryFolder, files: [String: String]), served: SitePages
    ) {
        var site = DatasetBuilder(schema: Schema(name: "test"))
        for n in 0..<users {
            site.user("u\(n)", "user \(n) & co")
            site.post("-P\(n)", by: "u\(n)", at: Double(n))
        }
        let dataset = site.dataset
        var options = SiteOptions(exportName: "test.json", perPage: 2, baseURL: "https://example.org/feeds")
        options.sitemapLimit = limit
        let builder = SiteBuilder(
            dataset: dataset, derived: DerivedData(dataset),
            audit: AuditResult(findings: [], rulesRun: [], skipped: []),
            options: options, templates: try TemplateSet())
        let out = try TemporaryFolder("sitemap")
        // Into a folder of its own, so that its cache and marker beside it are in the temporary folder too.
        try builder.build(into: out.path("site"))
        let files = out.texts(under: "site")
        let served = try SitePages(
            dataset: builder.dataset, derived: builder.derived, audit: builder.audit, options: options,
            templates: builder.templates, byPath: true)
        return ((out, files), served)
    }

    func locs(_ xml: String) -> [String] {
        xml.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.output.1) }
    }

    /// xmllint's verdict on `file` against `Tests/Schemas/<schema>`.
    func validate(_ file: String, schema: String) throws -> (ok: Bool, output: String) {
        let result = try runProcess(
            URL(fileURLWithPath: xmllint!),
            ["--noout", "--schema", repositoryFile("Tests/Schemas/\(schema)").path, file])
        return (result.code == 0, result.stdout + result.stderr)
    }

    @Test func aSiteOverTheLimitGetsAnIndexOfSitemapsOfAtMostTheLimit() throws {
        let (folder, files) = try build(users: 12, limit: 10)
        let pages = files.keys.filter { $0.hasSuffix(".html") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(pages.count > 40, "index pages, timelines, profiles, posts, report")
        let index = try #require(files["sitemap.xml"])
        #expect(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
        let parts = locs(index)
        let expectedParts = (pages.count + 9) / 10
        #expect(parts == (1...expectedParts).map { "https://example.org/feeds/sitemap-\($0).xml" })
        var listed: [String] = []
        for n in 1...expectedParts {
            let part = try #require(files["sitemap-\(n).xml"])
            #expect(part.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
            let urls = locs(part)
            #expect(
                urls.count <= 10 && (n == expectedParts || urls.count == 10), "sitemap-\(n).xml: \(urls.count) URLs")
            listed += urls
        }
        #expect(files["sitemap-\(expectedParts + 1).xml"] == nil)
        #expect(listed == pages.map { "https://example.org/feeds/" + $0 }, "every page once, in order")
        #expect(listed.contains("https://example.org/feeds/page/2/index.html"))

        if xmllint != nil {
            let verdict = try validate(folder.path("site/sitemap.xml"), schema: "siteindex.xsd")
            #expect(verdict.ok, "\(verdict.output)")
            for n in 1...expectedParts {
                let part = try validate(folder.path("site/sitemap-\(n).xml"), schema: "sitemap.xsd")
                #expect(part.ok, "\(part.output)")
            }
            // The index is no urlset, which the schema check tells apart.
            #expect(try !validate(folder.path("site/sitemap.xml"), schema: "sitemap.xsd").ok)
        }
    }

    /// `serve` answers each path with the file `build` wrote there, the sitemap's index and parts and every index
    /// page included, and nothing where `build` wrote nothing.
    @Test func servedPathsGiveTheBuiltFiles() throws {
        let ((folder, files), served) = try site(users: 12, limit: 10)
        #expect(files.keys.contains("sitemap-3.xml") && files.keys.contains("page/6/index.html"))
        for (path, text) in files where !path.hasPrefix(".") {
            #expect(try served.render(path: path) == text, "\(path)")
        }
        for path in ["sitemap-0.xml", "sitemap-99.xml", "page/7/index.html", "page/1/index.html", "page/02/index.html"]
        {
            #expect(try served.render(path: path) == nil, "\(path)")
        }
    }

    @Test func aSiteWithinTheLimitKeepsOneSitemap() throws {
        let (folder, files) = try build(users: 3, limit: 1000)
        let sitemap = try #require(files["sitemap.xml"])
        #expect(sitemap.contains("<urlset") && !files.keys.contains { $0.hasPrefix("sitemap-") })
        #expect(locs(sitemap).count == files.keys.count { $0.hasSuffix(".html") })
        if xmllint != nil { #expect(try validate(folder.path("site/sitemap.xml"), schema: "sitemap.xsd").ok) }
    }

    /// Page links of long lists: the first, the last, two either side of the current one, gaps between.
    @Test func longListsLinkAWindowOfPages() {
        let pages = Pagination(perPage: 1, count: 20)
        #expect(pages.linkedPages(from: 10) == [1, nil, 8, 9, 10, 11, 12, nil, 20])
        #expect(pages.linkedPages(from: 1) == [1, 2, 3, nil, 20])
        #expect(pages.linkedPages(from: 4) == [1, 2, 3, 4, 5, 6, nil, 20])
        #expect(pages.linkedPages(from: 20) == [1, nil, 18, 19, 20])
        #expect(Pagination(perPage: 1, count: 9).linkedPages(from: 5) == Array(1...9))
    }
}
