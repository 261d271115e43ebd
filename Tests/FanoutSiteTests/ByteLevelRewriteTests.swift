import FanoutTestSupport
import Testing

@testable import FanoutReports
@testable import FanoutSite

/// `SafeFileName.forKey` and `SafeURL.image` work on UTF-8 bytes for speed; these are the `Character` and
/// `Unicode.Scalar` versions they replaced, which must give the same answers.
private enum Reference {
    static func fileName(_ key: String) -> String {
        var escaped = ""
        for scalar in key.unicodeScalars {
            if scalar.isASCII, "abcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars.contains(scalar) {
                escaped.unicodeScalars.append(scalar)
            } else {
                for b in String(scalar).utf8 { escaped += "~" + (b < 0x10 ? "0" : "") + String(b, radix: 16) }
            }
        }
        if escaped.isEmpty { return "~" }
        if escaped.utf8.count <= SafeFileName.maxEscapedLength { return escaped }
        var bytes = Array(key.utf8)
        let hash = bytes.withUnsafeMutableBytes { SafeFileName.sha256(UnsafeRawBufferPointer($0)) }
        return OldFileNames.slug(key) + "~~"
            + hash.prefix(16).map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func image(_ text: String?) -> String? {
        guard let text else { return nil }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard
            text.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7F && !"\"'<>\\`".unicodeScalars.contains($0)
            })
        else { return nil }
        return text
    }
}

/// Deterministic strings drawn from `alphabet`.
private func samples(_ alphabet: [String], count: Int, seed: UInt64) -> [String] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in (0..<random.next(90)).map { _ in alphabet[random.next(alphabet.count)] }.joined() }
}

@Suite struct ByteLevelRewriteTests {
    static let alphabet = [
        "a", "Z", "q", "0", "9", "-", "_", ".", "/", "\\", " ", "~", "é", "É", "ß", "İ", "K", "\u{301}", "\u{0}", "\n",
        "\r\n", "🎉", "👩‍👩‍👧", "中", "\u{7F}", "\"", "'", "<", ">", "`", ":", "http://", "HTTPS://", "hTtP:/",
    ]

    @Test func fileNamesMatchTheScalarVersion() {
        let keys =
            samples(Self.alphabet, count: 3000, seed: 1)
            + [
                "", ".", "..", "alice", "Alice", String(repeating: "k", count: 120), String(repeating: "k", count: 121),
                "-KfMjZ0KXQ", String(repeating: "é", count: 50), "a\u{301}b",
            ]
        for key in keys {
            #expect(SafeFileName.forKey(key) == Reference.fileName(key), "\(key.debugDescription)")
        }
    }

    @Test func imageURLsMatchTheCharacterVersion() {
        let urls =
            samples(Self.alphabet, count: 3000, seed: 2).map { "https://" + $0 }
            + samples(Self.alphabet, count: 3000, seed: 3)
            + [
                "HTTP://x", "https://x/\u{301}", "https:/\u{301}/x", "http://é", "https://a b", "http://x\u{7F}",
                "https:", "",
            ]
        for url in urls {
            #expect(SafeURL.image(url) == Reference.image(url), "\(url.debugDescription)")
        }
        #expect(SafeURL.image(nil) == nil)
    }

    /// Trimming a caption's libcmark output by bytes gives what trimming it by characters does, whatever ends it
    /// (line breaks inside and outside ASCII, a space a prepended mark or a combining accent holds).
    @Test func trimmingMatchesTheCharacterVersion() {
        let ends = [
            " ", "\n", "\r", "\r\n", "\u{B}", "\u{C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{600}", "\u{301}", "é", "a",
        ]
        let texts =
            samples(Self.alphabet + ends, count: 3000, seed: 3)
            + ["", " ", "\n\n", "a \n", "\u{600} ", "\u{600} \n", "a\u{301} ", " \u{301}", "x\u{2028}", "x\u{85} \n"]
        for text in texts {
            #expect(CommonMark.trimmed(text) == CommonMark.slowTrimmed(text), "\(text.debugDescription)")
        }
    }

    /// XML text with nothing to escape comes back as it is, and the rest as the scalar loop escapes it.
    @Test func xmlEscapingMatchesTheScalarVersion() {
        for text in samples(Self.alphabet + ["\t", "\u{FFFE}", "\u{FFFF}", "&", "\u{1F}"], count: 3000, seed: 4) {
            #expect(XMLText.escape(text) == XMLText.scalarEscape(text), "\(text.debugDescription)")
        }
    }
}
