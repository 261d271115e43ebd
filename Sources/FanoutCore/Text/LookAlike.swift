/// What a name looks like, for telling names apart that a reader cannot (`user-name-confusable`; docs/checks.md
/// "Look-alike usernames"): its **skeleton**, the name as drawn (what follows a right-to-left override reversed),
/// with the invisible scalars removed (``VisibleText``) and every other scalar mapped to the lower-case Latin letter
/// it looks like. Two names with one skeleton look alike.
///
/// Not Unicode's whole confusables table (UTS #39), nor NFKC, which Foundation does not do the same on every
/// platform: a small table of the look-alikes impersonation uses, each one scalar for one scalar, so that SQL's
/// `translate` gives the same skeleton. It covers case (ASCII and the letters below), the Cyrillic and Greek letters
/// drawn like Latin ones (`а` U+0430, `ο` U+03BF…), fullwidth Latin letters and digits (`ａ` U+FF41), `0` for `o`
/// and `1` for `l`.
public enum LookAlike {
    /// The scalars mapped, and below each in ``latin`` what it maps to.
    static let mapped =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "01"
        // Cyrillic: а е о р с у х і ј ѕ ԁ һ ԛ ԝ ӏ, then capitals А В Е К М Н О Р С Т Х І Ј Ѕ У Ԛ Ԝ
        + "\u{430}\u{435}\u{43E}\u{440}\u{441}\u{443}\u{445}\u{456}\u{458}\u{455}\u{501}\u{4BB}\u{51B}\u{51D}\u{4CF}"
        + "\u{410}\u{412}\u{415}\u{41A}\u{41C}\u{41D}\u{41E}\u{420}\u{421}\u{422}\u{425}\u{406}\u{408}\u{405}\u{423}"
        + "\u{51A}\u{51C}"
        // Greek: α ι κ ν ο ρ υ χ, then capitals Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ
        + "\u{3B1}\u{3B9}\u{3BA}\u{3BD}\u{3BF}\u{3C1}\u{3C5}\u{3C7}"
        + "\u{391}\u{392}\u{395}\u{396}\u{397}\u{399}\u{39A}\u{39C}\u{39D}\u{39F}\u{3A1}\u{3A4}\u{3A5}\u{3A7}"
        // Fullwidth Latin capitals, small letters and digits
        + String(String.UnicodeScalarView((0xFF21...0xFF3A).compactMap(Unicode.Scalar.init)))
        + String(String.UnicodeScalarView((0xFF41...0xFF5A).compactMap(Unicode.Scalar.init)))
        + String(String.UnicodeScalarView((0xFF10...0xFF19).compactMap(Unicode.Scalar.init)))
    /// What each scalar of ``mapped`` looks like.
    static let latin =
        "abcdefghijklmnopqrstuvwxyz" + "ol"
        + "aeopcyxijsdhqwl" + "abekmhopctxijsy" + "qw"
        + "aikvopux" + "abezhikmnoptyx"
        + "abcdefghijklmnopqrstuvwxyz" + "abcdefghijklmnopqrstuvwxyz" + "ol23456789"

    private static let table: [UInt32: Unicode.Scalar] = {
        let from = Array(mapped.unicodeScalars), to = Array(latin.unicodeScalars)
        precondition(from.count == to.count, "\(from.count) scalars mapped to \(to.count)")
        return Dictionary(zip(from.map(\.value), to)) { first, _ in first }
    }()

    /// The right-to-left override, after which text is drawn reversed (`\u{202E}ecila` reads "alice").
    static let rightToLeftOverride: Unicode.Scalar = "\u{202E}"

    /// `name`'s skeleton: what follows its first right-to-left override reversed (to the end: a pop of the
    /// override is invisible too, and rare), without its invisible scalars, each scalar of the table mapped.
    public static func skeleton(_ name: String) -> String {
        var drawn = Array(name.unicodeScalars)
        if let override = drawn.firstIndex(of: rightToLeftOverride) { drawn[(override + 1)...].reverse() }
        var skeleton = String.UnicodeScalarView()
        for scalar in drawn where !VisibleText.isInvisible(scalar) {
            skeleton.append(table[scalar.value] ?? scalar)
        }
        return String(skeleton)
    }
}
