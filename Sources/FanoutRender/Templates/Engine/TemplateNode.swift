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

/// Where a ``TemplateNode/text(_:)``'s bytes are in its ``TemplateTextPool``.
struct TemplateText: Sendable {
    let start: Int
    let count: Int
}

/// A name a tag looks up, split on its dots once.
struct TemplateName: Sendable {
    enum Start {
        /// The first part is looked up on every level of the context stack, from the top.
        case stack
        /// `.name`: in the top of the stack only.
        case top
    }

    /// The first part; nil for `.` (the top of the stack itself).
    let head: String?
    /// The parts after the first, each looked up in the value the one before found (usually none).
    let tail: [String]
    let start: Start

    /// Reads `name` as swift-mustache does: `.` is the top of the stack; a leading dot looks in the top only;
    /// empty parts (`a..b`) are dropped.
    init(_ name: String) {
        let parts = name == "." ? [] : name.split(separator: ".").map(String.init)
        head = parts.first
        tail = parts.count > 1 ? Array(parts.dropFirst()) : []
        start = name.first == "." ? .top : .stack
    }
}

/// The text of every template of a set in one block, which ``TemplateText``s point into, freed with the set.
final class TemplateTextPool: @unchecked Sendable {  // immutable after init
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(_ collected: [UInt8]) {
        bytes = .allocate(capacity: max(1, collected.count))
        _ = bytes.initialize(from: collected)
    }

    deinit { bytes.deallocate() }

    /// The bytes of `text`.
    @inline(__always)
    subscript(text: TemplateText) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[text.start..<(text.start + text.count)])
    }
}

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
