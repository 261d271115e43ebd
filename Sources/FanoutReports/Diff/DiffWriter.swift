import FanoutCore
import FanoutTemplates

/// Renders an ``ExportDiff`` in a report format: text, JSON, Markdown or HTML (docs/diff-and-history.md).
public enum DiffWriter {
    /// The report text. `maxPerList` caps each list of entries and of findings in text, Markdown and HTML (nil:
    /// all); JSON lists everything. HTML is rendered by `diff.mustache` of `templates` (the built-in ones when nil),
    /// with their stylesheet inside.
    public static func render(
        _ diff: ExportDiff, info: DiffInfo, format: DiffFormat, maxPerList: Int?, templates: TemplateSet? = nil
    ) throws(RenderError) -> String {
        switch format {
        case .json: return DiffJSON.render(diff, info: info)
        case .markdown: return DiffMarkdown.render(diff, info: info, maxPerList: maxPerList)
        case .html:
            let set: TemplateSet
            if let templates { set = templates } else { set = try TemplateSet.builtIn() }
            return try DiffHTML.render(diff, info: info, maxPerList: maxPerList, templates: set)
        case .text: return DiffText.render(diff, info: info, maxPerList: maxPerList)
        }
    }

    /// The summary line: `+3 new errors, 12 fixed; +1,204 likes, −3 users`.
    public static func summaryLine(_ diff: ExportDiff) -> String { DiffSummary.line(diff) }
}
