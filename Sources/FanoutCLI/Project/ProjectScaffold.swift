import FanoutImport
import Foundation

/// The files `fanout init` writes besides the templates: the project file, a sample page and, unless the
/// project names its own export, the demo export (``DemoExport``).
enum ProjectScaffold {
    /// Where a new project keeps the demo export.
    static let demoExportName = "export.json"

    /// A `fanout.toml` naming `export`, with every other setting shown at its default or commented out, so the
    /// file documents what can be set. It parses as a ``ProjectConfig`` (a test checks it).
    static func configFile(export: String, isDemo: Bool = false) -> String {
        let demoNote =
            isDemo
            ? "\n# export.json is the demo export, so that the project builds at once: replace it with yours.\n" : ""
        return """
            # Fanout site project. `fanout build` run in this folder reads this file; options on the command line
            # override it. Paths are relative to this file's folder.
            \(demoNote)
            export = \(quoted(export))        # the export to read: Firebase JSON (plain or gzip) or a Parse folder/.zip
            # schema = "makestagram"          # a preset (\(Presets.names.joined(separator: ", "))) or a .toml schema file
            title = "Fanout"
            # base_url = "https://feeds.example.com/"   # absolute URLs in feed.xml and sitemap.xml only
            per_page = 50                     # posts per timeline and profile page
            out = "_site"
            # cache_dir = ".fanout-cache"     # what a build keeps for the next, as cache_dir/_site (not published)
            fail_on = "never"                 # \(FailOn.listed)
            # history = "history.ndjson"      # runs of `fanout check --history FILE`; the report page shows their trend

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

    /// `path` (absolute, or relative to the current folder) as a path relative to the folder `base`; absolute
    /// when the two share no folder but the root.
    static func relativePath(to path: String, from base: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let from = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, from.count), target[common] == from[common] { common += 1 }
        guard common > 1 else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        let parts = Array(repeating: "..", count: from.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// A TOML basic string holding `text`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
