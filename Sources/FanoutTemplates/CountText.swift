/// Counts as pages show them: digits grouped by thousands ("423,253"), with the noun in the number it needs
/// ("1 like", "2 likes"), so no page says "1 posts". Locale-independent, so two builds write the same bytes.
package enum CountText {
    /// `n` with a comma between groups of three digits: `1234567` is `1,234,567`.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = n < 0 ? "-" : ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    /// `grouped(n)` and the noun: `one` for exactly 1, `other` for any other count ("0 likes", "1 like").
    package static func phrase(_ n: Int, _ one: String, _ other: String) -> String {
        "\(grouped(n)) \(n == 1 ? one : other)"
    }
}
