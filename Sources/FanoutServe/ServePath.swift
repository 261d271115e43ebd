/// What a request's target may be, and the site path it names (docs/serve.md).
///
/// The path is percent-decoded strictly, and anything that could climb out of the site or make two spellings of
/// one page is refused (400): a path not starting with `/`, a malformed or truncated `%XX`, invalid UTF-8,
/// control bytes, `\`, an encoded `/` (`%2F`, which would smuggle a separator into a segment), and a `.` or `..`
/// segment however it is spelt (`..`, `%2e%2e`, `.%2E`). The server never opens a file by the path: pages are
/// looked up by it (``FanoutSite/SitePages``), so even a path that passed would find nothing outside the site.
package enum ServePath {
    /// The longest request target (path and query) answered; a longer one gets 414. Site paths are short (a hashed
    /// key is at most 53 characters), and the HTTP decoder's own limit (``SiteServer``) stops far longer ones
    /// earlier.
    package static let maxTargetBytes = 2048

    /// The raw path of a request (without its query), decoded; nil when it is refused.
    package static func decode(_ raw: some StringProtocol) -> String? {
        let utf8 = Array(raw.utf8)
        guard utf8.first == UInt8(ascii: "/") else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            var byte = utf8[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < utf8.count, let high = hex(utf8[i + 1]), let low = hex(utf8[i + 2]) else { return nil }
                byte = high << 4 | low
                if byte == UInt8(ascii: "/") { return nil }
                i += 3
            } else {
                i += 1
            }
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return nil }
            out.append(byte)
        }
        for segment in out.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        where segment.elementsEqual([UInt8(ascii: ".")])
            || segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        {
            return nil
        }
        return String(validating: out, as: UTF8.self)
    }

    /// The site path (relative to its root, as `build` writes it) that a decoded request path names: `/` and every
    /// path ending in `/` name the folder's `index.html`, as a static server's do.
    package static func sitePath(_ decoded: String) -> String {
        let relative = String(decoded.dropFirst())
        return relative.isEmpty || relative.hasSuffix("/") ? relative + "index.html" : relative
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
