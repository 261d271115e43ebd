/// Whole numbers with thousands separators, `2,980`, as the text report writes counts: the same in every locale,
/// since reports are read in CI logs and compared across machines.
enum Thousands {
    static func format(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = number < 0 ? "-" : ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}
