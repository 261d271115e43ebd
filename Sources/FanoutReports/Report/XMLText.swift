/// Escaping for XML 1.0 text and attribute values.
package enum XMLText {
    /// `text` with `& < > " '` escaped and the characters XML 1.0 cannot hold at all (most control characters,
    /// which export keys may contain) spelled as `\u{…}`, so the report stays well-formed whatever the data.
    package static func escape(_ text: String) -> String {
        // Most text has nothing to escape: checked byte by byte, then returned as it is.
        if text.utf8.allSatisfy({ b in
            (b >= 0x20 && b < 0x80 && b != 0x26 && b != 0x3C && b != 0x3E && b != 0x22 && b != 0x27) || b == 0x09
                || b == 0x0A || b == 0x0D
        }) {
            return text
        }
        return scalarEscape(text)
    }

    /// ``escape(_:)`` scalar by scalar, for text that has something to escape (or is not ASCII).
    static func scalarEscape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\\u{\(String(v, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` escaped for an attribute value: also tab, LF and CR as character references, which XML parsers
    /// would otherwise normalize to spaces, so a message quoting a username with a line break reads back exactly.
    static func attribute(_ text: String) -> String {
        var out = ""
        for scalar in escape(text).unicodeScalars {
            switch scalar {
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
