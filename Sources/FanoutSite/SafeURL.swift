/// Keeps only image URLs that are safe to put in a page: absolute `http` or `https` URLs.
package enum SafeURL {
    /// `text` when it is an `http(s)` URL without spaces, quotes or control characters; nil otherwise.
    package static func image(_ text: String?) -> String? {
        guard let text else { return nil }
        // Every post's card checks its URL, and almost all are ASCII: those are checked byte by byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiImage(text) }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard
            text.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7F && !"\"'<>\\`".unicodeScalars.contains($0)
            })
        else { return nil }
        return text
    }

    /// ``image(_:)`` for an ASCII `text`.
    private static func asciiImage(_ text: String) -> String? {
        let utf8 = text.utf8
        guard hasPrefix(utf8, "https://") || hasPrefix(utf8, "http://") else { return nil }
        let safe = utf8.allSatisfy { b in
            switch b {
            case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "\\"), UInt8(ascii: "`"):
                return false
            default:
                return true
            }
        }
        return safe ? text : nil
    }

    /// Whether `utf8` starts with `prefix` (lower-case ASCII), ignoring ASCII case.
    private static func hasPrefix(_ utf8: String.UTF8View, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            guard utf8.count >= expected.count else { return false }
            return zip(utf8, expected).allSatisfy { b, e in (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == e }
        }
    }
}
