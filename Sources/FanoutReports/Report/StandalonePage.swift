import FanoutTemplates

/// An HTML page written on its own, outside a site: the layout of the site's pages (`layout.mustache`: the
/// language, the viewport, a header, one `main`, a footer) with the site's stylesheet inside, as a standalone
/// `check --format html` report carries it, so that it looks like the report wherever it is opened. For the
/// pages built in code rather than from a template: `fanout diff --format html` and `fanout history --format
/// html` (docs/diff-and-history.md).
enum StandalonePage {
    /// The page; `body` and `footer` are HTML (their data escaped by the caller), `title` text.
    static func html(title: String, body: String, footer: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title)) · Fanout</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header class="site-header">
        <nav aria-label="Site"><span class="brand">Fanout</span></nav>
        </header>
        <main id="main">
        \(body)
        </main>
        <footer class="site-footer">
        <p>\(footer)</p>
        </footer>
        </body>
        </html>

        """
    }

    /// A table of numbers, its first column naming each row: the index's table style (`table.users`), whose rows
    /// fold into labelled blocks on a phone, so that nothing scrolls sideways.
    static func table(caption: String, header: [String], rows: [(name: String, cells: [String])]) -> String {
        var html =
            "<table class=\"users\">\n<caption class=\"small\">\(HTMLText.escape(caption))</caption>\n<thead><tr>"
        html += header.map { "<th scope=\"col\">\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr><th scope=\"row\">\(row.name)</th>"
            html +=
                zip(header.dropFirst(), row.cells).map { label, cell in
                    "<td data-label=\"\(HTMLText.escape(label))\">\(HTMLText.escape(cell))</td>"
                }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>"
    }
}
