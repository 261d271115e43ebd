/// An HTML page written on its own, outside a site: `fanout diff --format html` and `fanout history --format
/// html` (docs/diff-and-history.md), rendered by `diff.mustache` and `history.mustache` inside
/// `standalone.mustache`, which carries the site's stylesheet inside so that the page looks like the report
/// wherever it is opened.
enum StandalonePage {
    /// `html` ending in a line break: the built-in templates are embedded without their file's last one.
    static func finished(_ html: String) -> String { html.hasSuffix("\n") ? html : html + "\n" }
}
