/// Names as they are: the scalars a reader cannot see (zero-width characters, bidi controls, other default-ignorable
/// code points) spelled out as `⟨U+200B⟩`, so that `al\u{200B}ice`, `alice\u{200D}` and `\u{202E}ecila` no longer read
/// "alice" on a page (docs/site.md "Names as they are"). Pages show every user's and poster's name through
/// ``shown(_:)``; the `user-name-confusable` rule reads ``isInvisible(_:)``.
public enum VisibleText {
    /// `text` with each invisible scalar written `⟨U+XXXX⟩`, except a zero-width joiner between two emoji and a
    /// variation selector after one (`👩‍👩‍👧`, `❤️`), which draw one picture rather than hide anything.
    public static func shown(_ text: String) -> String {
        // Most names are ASCII, which holds no invisible scalar: every card and heading asks.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isInvisible) else { return text }
        var shown = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            if isInvisible(scalar) && !joinsEmoji(scalars, at: i) {
                shown.append(contentsOf: spelled(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// `⟨U+200B⟩`: at least four upper-case hex digits, as the Unicode standard names a code point.
    static func spelled(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "⟨U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟩"
    }

    /// Whether `scalars[i]`, an invisible scalar, is part of an emoji: a zero-width joiner between two emoji, a
    /// variation selector after one.
    private static func joinsEmoji(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        func isEmoji(_ j: Int) -> Bool {
            // Digits, `#` and `*` are emoji too (keycaps), but no picture a joiner could join.
            j >= 0 && j < scalars.count && scalars[j].value >= 0xA9 && scalars[j].properties.isEmoji
        }
        switch scalars[i].value {
        case 0x200D: return isEmoji(i - 1) && isEmoji(i + 1)
        case 0xFE0E, 0xFE0F: return isEmoji(i - 1)
        default: return false
        }
    }

    /// Whether a reader cannot see `scalar`: Unicode's default-ignorable code points (zero-width space, joiners,
    /// word joiner, soft hyphen, variation selectors, tags, fillers…) and the bidi controls (marks, embeddings,
    /// overrides, isolates), which draw nothing and reorder what follows.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && invisibleRanges.contains { $0.contains(scalar.value) }
    }

    /// The scalars of ``isInvisible(_:)``, for SQL's regular expressions too.
    static let invisibleRanges: [ClosedRange<UInt32>] = [
        0x00AD...0x00AD, 0x034F...0x034F, 0x061C...0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F,
        0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164...0x3164, 0xFE00...0xFE0F, 0xFEFF...0xFEFF,
        0xFFA0...0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF,
    ]
}
