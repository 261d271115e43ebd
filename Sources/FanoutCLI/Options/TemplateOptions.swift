import ArgumentParser
import FanoutSite
import FanoutTemplates

/// `--templates` of `fanout diff` and `fanout history`: the folder whose `diff.mustache`, `history.mustache`,
/// `history-trend.mustache`, `standalone.mustache` and `style.css` replace the built-in ones in their HTML, as
/// `fanout build --templates` replaces the site's (docs/diff-and-history.md "Templates").
struct TemplateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Templates overriding the built-in ones in HTML, file by file (diff.mustache, history.mustache, "
                + "style.css, …). Default: the Templates folder beside fanout.toml (or here) when it exists.",
            valueName: "DIR"))
    var templates: String?

    /// The templates, read now: `--templates`, else the project's `Templates/`, over the built-in ones; a
    /// template that does not parse is an error naming its file and line.
    func templateSet(_ layout: LayoutOptions) throws -> TemplateSet {
        try TemplateSet(overrides: templates ?? layout.existingFolder("Templates"))
    }
}
