/// `sitemap.xml` (sitemaps.org protocol 0.9) listing every HTML page of the site.
///
/// The protocol wants absolute URLs, which need the site's base URL: a site built without one has no sitemap.
/// No `lastmod`: the build time would make two builds differ.
enum Sitemap {
    /// The sitemap of `pages` (paths from the site's root) under `baseURL`, which ends in `/`.
    static func render(pages: [String], baseURL: String) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages {
            out += "<url><loc>\(XMLText.escape(baseURL + page))</loc></url>\n"
        }
        return out + "</urlset>\n"
    }
}
