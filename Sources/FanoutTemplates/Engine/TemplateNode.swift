/// One piece of a compiled template (``CompiledTemplates``): what swift-mustache's parser makes of a tag, with the
/// name it looks up split once, at compile time, instead of on every lookup.
///
/// Nodes hold no reference that rendering would retain for text and names (text is a place in the template set's
/// one block of text, ``TemplateTextPool``; names are mostly small strings, which have no storage to count): both
/// render threads read the same nodes, and every retain of a shared object is a write the other core's cache loses.
enum TemplateNode: Sendable {
    /// Text, copied as it is.
    case text(TemplateText)
    /// `{{name}}` (`escaped`) or `{{{name}}}`, `{{&name}}`.
    case variable(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when `inverted`.
    case section(TemplateName, [TemplateNode], inverted: Bool)
    /// `{{>name}}`, and `{{<name}}…{{/name}}` with the blocks it overrides; `indentation`: the whitespace before a
    /// standalone tag (or a parent's), which every line the partial renders after its first gets.
    case partial(String, indentation: [UInt8]?, overrides: [String: [TemplateNode]]?)
    /// `{{$name}}…{{/name}}`: the block a parent's child may override, else its own content. `intrinsic`: for a
    /// standalone block whose content is indented more than its tag, that indentation, which an override gets
    /// (the specification's "Intrinsic indentation"; swift-mustache gives it the tag's).
    case block(String, [TemplateNode], indentation: [UInt8]?, intrinsic: [UInt8]? = nil)
    /// `{{%CONTENT_TYPE:…}}`: how the values after it in the same template are escaped.
    case contentType(TemplateEscaping)
}
