import FanoutImport

/// The files `fanout init` writes besides the templates: the project file and a sample page.
enum ProjectScaffold {
    /// A `fanout.toml` naming `export`, with every other setting shown at its default or commented out, so the
    /// file documents what can be set. It parses as a ``ProjectConfig`` (a test checks it).
    static func configFile(export: String) -> String {
        """
        # Fanout site project. `fanout build` run in this folder reads this file; options on the command line
        # override it. Paths are relative to this file's folder.

        export = \(quoted(export))        # the export to read: Firebase JSON (plain or gzip) or a Parse folder/.zip
        # schema = "makestagram"          # a preset (\(Presets.names.joined(separator: ", "))) or a .toml schema file
        title = "Fanout"
        # base_url = "https://feeds.example.com/"   # absolute URLs in feed.xml and sitemap.xml only
        per_page = 50                     # posts per timeline and profile page
        out = "_site"
        fail_on = "never"                 # \(FailOn.listed)

        [rules]
        # push-id-time = "off"            # off, info, warning or error, per rule

        """
    }

    /// `Content/about.md`: a page of the site, linked from every page's navigation.
    static let samplePage = """
        ---
        title: About
        order: 1
        ---
        # About this site

        Every Markdown file in `Content/` becomes a page of the site, linked from the navigation in `order`.
        `Content/index.md`, if present, introduces the home page. Edit the templates in `Templates/` to change
        the layout; a template deleted there falls back to the built-in one.

        """

    /// A TOML basic string holding `text`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
