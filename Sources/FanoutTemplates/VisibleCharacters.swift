/// Characters a page or report may not hold, spelled visibly as `\u{…}` instead.
///
/// Export data is untrusted: a username may hold NUL, ESC or U+FFFF. HTML forbids control characters other than
/// whitespace and every noncharacter (the Nu validator stops at them: "Saw U+0000 in stream", "Forbidden code
/// point U+001b"), and an ESC that reaches a terminal through `fanout check --format markdown` can rewrite it.
/// Every HTML and Markdown output replaces them with their code point in the `\u{1b}` form the text, XML and
/// GitHub reports already use, so a reader sees that something was there and what (docs/robustness.md).
package enum VisibleCharacters {
    /// `text` with every scalar for which `forbidden` holds spelled as `\u{hex}`; `text` itself when there is none.
    package static func spell(_ text: String, where forbidden: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: forbidden) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if forbidden(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with what ``isForbiddenInDocuments(_:)`` names spelled out: for HTML and Markdown.
    package static func forDocuments(_ text: String) -> String {
        guard text.utf8.contains(where: mayStartForbidden) else { return text }
        return spell(text, where: isForbiddenInDocuments)
    }

    /// Control characters (C0 but tab, line feed and carriage return; DEL; C1) and noncharacters (U+FDD0–U+FDEF and
    /// the last two code points of every plane), which HTML does not allow in a document.
    package static func isForbiddenInDocuments(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch v {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0x7F...0x9F, 0xFDD0...0xFDEF: return true
        default: return v & 0xFFFE == 0xFFFE
        }
    }

    /// Whether a UTF-8 byte can start or be a forbidden character: a quick test that lets the text escapers skip
    /// ``forDocuments(_:)`` for almost every value (ASCII letters, digits and punctuation never can).
    @inline(__always)
    package static func mayStartForbidden(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0D: return false
        // C0 and DEL; 0xC2 leads C1 controls; 0xEF leads U+FDD0–U+FDEF and U+FFFE/U+FFFF; 0xF0–0xF4 lead the
        // other planes' noncharacters.
        case 0..<0x20, 0x7F, 0xC2, 0xEF, 0xF0...0xF4: return true
        default: return false
        }
    }
}
