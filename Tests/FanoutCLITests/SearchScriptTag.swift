/// The one script a built page has: the index's search box (docs/site.md "Finding a user"), `search.js` from the
/// site's root. Tests that no export data became markup look at a page without it.
enum SearchScriptTag {
    /// `html` without the index's own `<script src="…search.js" defer></script>`.
    static func removed(from html: String) -> String {
        html.replacing(/<script src="(\.\.\/)*search\.js" defer><\/script>/, with: "")
    }
}
