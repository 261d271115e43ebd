import Mustache

/// A Mustache syntax error as a person reads it: the line, and what is wrong in the template's own terms
/// (`section "body" closed by "/bod"`), instead of swift-mustache's error value.
enum TemplateSyntax {
    /// The line and message for `error`, thrown by swift-mustache parsing `text`.
    static func describe(_ error: Error, in text: String) -> (line: Int, message: String) {
        let tags = TemplateTags(text)
        guard let parserError = error as? MustacheTemplate.ParserError else { return (1, "\(error)") }
        let context = parserError.context
        let line = context.lineNumber
        switch parserError.error {
        case MustacheTemplate.Error.sectionCloseNameIncorrect:
            // The parser stops just after `{{/`; the name runs to `}}`.
            let after = context.line.dropFirst(max(0, context.columnNumber - 1))
            let closing = String(after.prefix { $0 != "}" }.filter { $0 != " " && $0 != "\t" })
            // The closing tag's own `{{/` starts three columns before; the sections open before it are the ones it closes.
            guard let open = tags.openSections(before: line, column: context.columnNumber - 3).last else {
                return (line, "\"/\(closing)\" closes no open section")
            }
            return (line, "section \"\(open.name)\" closed by \"/\(closing)\"")
        case MustacheTemplate.Error.expectedSectionEnd:
            guard let open = tags.openSections(before: Int.max, column: 0).last else {
                return (line, "a section is never closed")
            }
            return (open.line, "section \"\(open.name)\" is never closed (no {{/\(open.name)}})")
        case MustacheTemplate.Error.unfinishedName:
            return (line, "malformed tag: expected a name (letters, digits, _ - . ?) and then \"}}\"")
        case MustacheTemplate.Error.invalidSetDelimiter:
            return (line, "malformed set-delimiter tag: expected {{=<start> <end>=}}")
        case MustacheTemplate.Error.transformAppliedToInheritanceSection:
            return (line, "a block ({{$name}}) cannot take a transform")
        case MustacheTemplate.Error.illegalTokenInsideInheritSection, MustacheTemplate.Error.textInsideInheritSection:
            // The parser notices at the parent's end; the tag at fault is the first other than a block in it.
            let at = tags.firstTagDirectlyInsideAParent()?.line ?? line
            return (at, "only blocks ({{$name}}…{{/name}}) may stand directly inside a parent ({{<name}}…{{/name}})")
        case MustacheTemplate.Error.invalidConfigVariableSyntax, MustacheTemplate.Error.unrecognisedConfigVariable:
            return (line, "unknown or malformed pragma ({{%…}})")
        default:
            // swift-mustache's parser ran off the end: a tag opened with {{ is never closed.
            if let open = tags.unterminated { return (open.line, "tag not closed: \"}}\" missing") }
            return (line, "\(parserError.error)")
        }
    }
}
