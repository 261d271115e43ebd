/// How values are escaped: what `{{%CONTENT_TYPE:…}}` chooses, HTML unless a template says otherwise.
enum TemplateEscaping: Sendable {
    /// ``HTMLText``.
    case html
    /// ``MarkdownText``.
    case markdown
    /// Not at all (swift-mustache's `TEXT`).
    case text

    /// The content type a pragma names, as swift-mustache and ``TemplateSet`` register them.
    init?(pragma name: String) {
        switch name {
        case "HTML": self = .html
        case "MARKDOWN": self = .markdown
        case "TEXT": self = .text
        default: return nil
        }
    }
}
