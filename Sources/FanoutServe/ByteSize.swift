/// An amount of memory as `serve`'s options and messages say it (`--page-cache-size 256MB`, docs/serve.md "The page
/// cache"): `256MB`, `1GB`, `512KB` (powers of 1,000, as the manual's figures are) or a plain number of bytes.
package enum ByteSize {
    /// The largest amount taken: far beyond any machine's memory, and well within `Int`'s arithmetic.
    static let limit = 1 << 50

    /// What ``parse(_:)`` takes, for its option's error.
    package static let expected = "a size such as 256MB, 1GB or 0 (KB, MB, GB or a number of bytes)"

    /// `argument` in bytes; nil when it is no size.
    package static func parse(_ argument: String) -> Int? {
        let text = argument.uppercased().filter { $0 != " " }
        let units: [(suffix: String, bytes: Int)] = [("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Int(text.dropLast(unit.suffix.count)), number >= 0, number <= limit / unit.bytes else {
            return nil
        }
        return number * unit.bytes
    }

    /// `bytes` for a message: `256 MB`, `1.5 GB`, `800 KB`, `12 bytes`.
    package static func text(_ bytes: Int) -> String {
        switch bytes {
        case 1_000_000_000...: "\(decimal(Double(bytes) / 1e9)) GB"
        case 1_000_000...: "\(decimal(Double(bytes) / 1e6)) MB"
        case 1_000...: "\(decimal(Double(bytes) / 1e3)) KB"
        default: "\(bytes) bytes"
        }
    }

    private static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }
}
