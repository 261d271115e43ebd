import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Markdown to HTML through libcmark, the CommonMark reference implementation.
package enum CommonMark {
    /// Renders `markdown` as an HTML fragment in cmark's safe mode: raw HTML is replaced by a comment and
    /// `javascript:`, `vbscript:`, `file:` and most `data:` links are dropped, because captions come from
    /// untrusted app users.
    package static func html(_ markdown: String) -> String {
        var text = markdown
        return text.withUTF8 { bytes in
            let options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8
            guard let base = bytes.baseAddress,
                let rendered = base.withMemoryRebound(to: CChar.self, capacity: bytes.count, {
                    cmark_markdown_to_html($0, bytes.count, options)
                })
            else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }
}
