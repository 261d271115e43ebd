import CCmark
import FanoutTemplates

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Markdown through libcmark, the CommonMark reference implementation: to HTML for pages, to safe Markdown for the
/// Markdown twins, to plain text for Atom feeds.
///
/// Captions come from untrusted app users, so every output drops raw HTML and dangerous links, and characters no
/// document may hold are spelled out before libcmark sees the text (``VisibleCharacters``).
package enum CommonMark {
    /// Renders `markdown` as an HTML fragment: raw HTML is left out, and links and images to `javascript:`,
    /// `vbscript:`, `file:` and most `data:` URLs keep only their text (see ``withSafeDocument(_:_:)``). With
    /// `hardBreaks`, a line break inside a paragraph is a `<br>`, as the apps that write captions show it
    /// (captions only: `Content/` pages are Markdown documents, where a line break is a space).
    package static func html(_ markdown: String, hardBreaks: Bool = false) -> String {
        withSafeDocument(markdown) { document in
            // Safe mode as well, for what the tree still holds: it drops nothing more from a cleaned tree.
            guard
                let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT | (hardBreaks ? CMARK_OPT_HARDBREAKS : 0))
            else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// A caption as CommonMark for a Markdown page: the caption's own Markdown, cleaned as for HTML and rendered
    /// again by libcmark, with line breaks inside a paragraph kept as hard breaks (as ``html(_:hardBreaks:)``
    /// shows them). Rendering from the tree also closes what the caption left open (a code fence), so it cannot
    /// swallow the page after it. Ends without a line break; empty when nothing is left.
    package static func safeMarkdown(_ markdown: String) -> String {
        withSafeDocument(markdown) { document in
            var softBreaks: [OpaquePointer] = []
            forEach(in: document) { node, _ in
                if cmark_node_get_type(node) == CMARK_NODE_SOFTBREAK { softBreaks.append(node) }
            }
            for node in softBreaks {
                if let hard = cmark_node_new(CMARK_NODE_LINEBREAK) { cmark_node_insert_before(node, hard) }
                cmark_node_free(node)
            }
            guard let rendered = cmark_render_commonmark(document, CMARK_OPT_DEFAULT, 0) else { return "" }
            defer { free(rendered) }
            return trimmed(String(cString: rendered))
        }
    }

    /// `markdown` as plain text, for feeds (an Atom title or text summary shows markup as written): the text of
    /// every block, blocks separated by a blank line, line breaks kept, raw HTML left out.
    package static func plainText(_ markdown: String) -> String {
        withSafeDocument(markdown) { document in
            var out = ""
            forEach(in: document) { node, entering in
                switch cmark_node_get_type(node) {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                    if entering { out += cmark_node_get_literal(node).map { String(cString: $0) } ?? "" }
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    out += "\n"
                case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
                    if !entering { out += "\n\n" }
                case CMARK_NODE_THEMATIC_BREAK:  // a leaf: entered only
                    out += "\n\n"
                default: break
                }
            }
            var lines: [Substring] = []
            for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = line.drop { $0 == " " }
                if line.isEmpty && (lines.last?.isEmpty ?? true) { continue }  // one blank line between blocks
                lines.append(line)
            }
            return trimmed(lines.joined(separator: "\n"))
        }
    }

    /// Whether libcmark's safe mode drops a link to `url`: `javascript:`, `vbscript:`, `file:`, and `data:` other
    /// than PNG, GIF, JPEG and WebP images (the list of cmark's `_scan_dangerous_url`).
    static func isDangerous(_ url: String) -> Bool {
        let lower = url.lowercased()
        if lower.hasPrefix("data:") {
            return !["png", "gif", "jpeg", "webp"].contains { lower.hasPrefix("data:image/\($0)") }
        }
        return ["javascript:", "vbscript:", "file:"].contains { lower.hasPrefix($0) }
    }

    /// Parses `markdown` (spelled out as ``VisibleCharacters/forDocuments(_:)`` says), removes what no output may
    /// show, and hands the document to `body`, freeing it afterwards. Removed: raw HTML (blocks and inline), and
    /// links and images whose URL ``isDangerous(_:)``, which are replaced by their text (an image's is its alt
    /// text), so a page never holds an empty `src` or `href`.
    private static func withSafeDocument(_ markdown: String, _ body: (OpaquePointer) -> String) -> String {
        var text = VisibleCharacters.forDocuments(markdown)
        let parsed = text.withUTF8 { bytes in
            bytes.baseAddress?.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                cmark_parse_document($0, bytes.count, CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8)
            }
        }
        guard let document = parsed else { return "" }
        defer { cmark_node_free(document) }
        var html: [OpaquePointer] = [], unsafe: [OpaquePointer] = []
        forEach(in: document) { node, entering in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: html.append(node)
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                if !entering && isDangerous(cmark_node_get_url(node).map { String(cString: $0) } ?? "") {
                    unsafe.append(node)
                }
            default: break
            }
        }
        // Changed only now: libcmark's iterator must not see the tree change under it.
        for node in html { cmark_node_free(node) }  // unlinks it too
        for node in unsafe {
            while let child = cmark_node_first_child(node) { cmark_node_insert_before(node, child) }
            cmark_node_free(node)
        }
        return body(document)
    }

    /// Calls `visit` for every node of `document` in document order: once for a leaf, on entering and on leaving
    /// a node with children (`entering` says which).
    private static func forEach(in document: OpaquePointer, _ visit: (OpaquePointer, _ entering: Bool) -> Void) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        var event = cmark_iter_next(iterator)
        while event != CMARK_EVENT_DONE {
            if let node = cmark_iter_get_node(iterator) { visit(node, event == CMARK_EVENT_ENTER) }
            event = cmark_iter_next(iterator)
        }
    }

    /// `text` without the line breaks and spaces it ends with.
    static func trimmed(_ text: String) -> String {
        // Byte by byte when what is left ends in an ASCII character: the bytes dropped (space, LF, CR, VT, FF) are
        // then each a character of its own, or CR LF, as the slow way below sees them. Character by character
        // otherwise (a trailing U+2028, a space a prepended mark holds): that was a sixth of a rebuild's time.
        let utf8 = text.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex {
            let before = utf8.index(before: end)
            guard [0x20, 0x0A, 0x0D, 0x0B, 0x0C].contains(utf8[before]) else { break }
            end = before
        }
        if end == utf8.endIndex {
            // Nothing to drop unless the last scalar is a line break outside ASCII (U+0085, U+2028, U+2029).
            let last = text.unicodeScalars.last?.value
            return last == 0x85 || last == 0x2028 || last == 0x2029 ? slowTrimmed(text) : text
        }
        if end == utf8.startIndex || utf8[utf8.index(before: end)] < 0x80 { return String(text[..<end]) }
        return slowTrimmed(text)
    }

    /// ``trimmed(_:)`` character by character: what it gives, and what a test compares it with.
    static func slowTrimmed(_ text: String) -> String {
        String(text.reversed().drop { $0.isNewline || $0 == " " }.reversed())
    }
}
