import FanoutTemplates

/// The built-in templates and assets as files, for `fanout init` to copy into a new site project.
package enum BuiltinTemplateFiles {
    /// Every built-in template and asset (`style.css`), by file name, as shipped inside the binary.
    package static var files: [String: String] { BuiltinTemplates.files }
}

extension TemplateSet {
    /// The built-in templates, overridden by the files in `overrides` when given and present: what a report is
    /// rendered with when it is given no templates.
    package static func builtIn(overrides: String? = nil) throws(RenderError) -> TemplateSet {
        try TemplateSet(builtIn: BuiltinTemplateFiles.files, overrides: overrides)
    }
}
