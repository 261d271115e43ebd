import FanoutReports

/// `sitemap.xml` (sitemaps.org protocol 0.9) listing every HTML page of the site.
///
/// The protocol wants absolute URLs, which need the site's base URL: a site built without one has no sitemap.
/// No `lastmod`: the build time would make two builds differ.
///
/// A sitemap holds at most 50,000 URLs. A site with more gets a sitemap index instead (docs/site.md "Pages, feeds and
/// the sitemap"): `sitemap.xml` becomes a `<sitemapindex>` naming `sitemap-1.xml`, `sitemap-2.xml`, …, each a
/// `<urlset>` of at most that many pages in order. Only then, so that the sitemap of a smaller site stays the one file
/// every consumer reads, and the URL search engines are given, `sitemap.xml`, never changes.
enum Sitemap {
    /// The protocol's limit of URLs in one sitemap file (and of sitemaps in one index).
    static let urlLimit = 50_000

    /// The sitemap files for `pages` (paths from the site's root, in order) under `baseURL`, which ends in `/`,
    /// as paths and texts: `sitemap.xml` alone, or with more than `limit` pages an index and its parts.
    static func render(pages: [String], baseURL: String, limit: Int = urlLimit) -> [(path: String, text: String)] {
        guard pages.count > limit else { return [("sitemap.xml", urlset(pages[...], baseURL: baseURL))] }
        let parts = stride(from: 0, to: pages.count, by: limit).enumerated().map { n, start in
            (
                path: "sitemap-\(n + 1).xml",
                text: urlset(pages[start..<min(pages.count, start + limit)], baseURL: baseURL)
            )
        }
        var index =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for part in parts {
            index += "<sitemap><loc>\(XMLText.escape(baseURL + part.path))</loc></sitemap>\n"
        }
        return [("sitemap.xml", index + "</sitemapindex>\n")] + parts
    }

    private static func urlset(_ pages: ArraySlice<String>, baseURL: String) -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages {
            out += "<url><loc>\(XMLText.escape(baseURL + page))</loc></url>\n"
        }
        return out + "</urlset>\n"
    }
}
