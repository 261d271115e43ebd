/// Keeps only image URLs that are safe to put in a page: absolute `http` or `https` URLs.
public enum SafeURL {
    /// `text` when it is an `http(s)` URL without spaces, quotes or control characters; nil otherwise.
    public static func image(_ text: String?) -> String? {
        guard let text else { return nil }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !"\"'<>\\`".unicodeScalars.contains($0) })
        else { return nil }
        return text
    }
}
