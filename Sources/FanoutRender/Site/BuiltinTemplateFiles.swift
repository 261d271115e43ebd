/// The built-in templates and assets as files, for `fanout init` to copy into a new site project.
package enum BuiltinTemplateFiles {
    /// Every built-in template and asset (`style.css`), by file name, as shipped inside the binary.
    package static var files: [String: String] { BuiltinTemplates.files }
}
