#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about deflate streams (gzip files and zip entries) that bound what a damaged header may claim, and how
/// far Fanout lets one inflate (docs/robustness.md "Decompression bombs").
enum Deflate {
    /// Deflate's largest compression ratio is about 1032:1, so a stated decompressed size beyond
    /// 1032 × the compressed size cannot be true and is not reserved up front.
    static let largestRatio = 1032

    /// Real exports compress 5 to 20 times (push ids, timestamps and URLs do not repeat); padding, a run of one
    /// byte or a planted bomb compress up to ``largestRatio``. Past 100 times and past ``defaultAllowance``, an
    /// input is refused, as Apache POI refuses zip entries past 100 times (`ZipSecureFile`'s minimum inflate
    /// ratio 0.01).
    static let ratioLimit = 100

    /// What any input may inflate to whatever its ratio, so that a small export of repetitive data is never
    /// refused: 64 MiB, or `FANOUT_MAX_INFLATED_SIZE`.
    static let defaultAllowance = 64 << 20

    /// The environment variable that raises ``defaultAllowance``: a size in bytes, with K, M, G or T (powers of
    /// 1024).
    static let allowanceVariable = "FANOUT_MAX_INFLATED_SIZE"

    /// The most bytes `compressed` bytes of `source` may inflate to: 100 times their size, or the allowance when
    /// that is more.
    static func limit(compressed: Int, source: String) throws(InputError) -> Int {
        let allowance = try Self.allowance(source: source)
        let (ratio, overflow) = max(compressed, 1).multipliedReportingOverflow(by: ratioLimit)
        return overflow ? Int.max - 1 : max(ratio, allowance)
    }

    /// The allowance the environment sets, or the default.
    static func allowance(source: String) throws(InputError) -> Int {
        guard let value = getenv(allowanceVariable).map({ String(cString: $0) }), !value.isEmpty else {
            return defaultAllowance
        }
        guard let size = parseSize(value) else {
            throw InputError.unreadable(
                path: source,
                reason: "\(allowanceVariable)=\(value) is not a size: give bytes, or a number with K, M, G or T (8G)")
        }
        return size
    }

    /// `8G`, `512M`, `1048576`: a size in bytes; nil when it is not one.
    static func parseSize(_ text: String) -> Int? {
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        if digits.hasSuffix("I") { digits = digits.dropLast() }
        var shift = 0
        if let unit = digits.last, let index = ["K", "M", "G", "T"].firstIndex(of: String(unit)) {
            shift = 10 * (index + 1)
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= (Int.max - 1) >> shift else { return nil }
        return number << shift
    }

    /// The error for `source`, whose `compressed` bytes inflate to more than `limit`.
    static func refusal(_ source: String, what: String, compressed: Int, limit: Int) -> InputError {
        InputError.unreadable(path: source, reason: refusalReason(what: what, compressed: compressed, limit: limit))
    }

    /// Why `what` (`its gzip data`, `it`), whose `compressed` bytes inflate to more than `limit`, is refused.
    static func refusalReason(what: String, compressed: Int, limit: Int) -> String {
        "\(what) inflates to more than \(describe(size: limit)) from \(describe(size: compressed)), "
            + "over \(limit / max(compressed, 1)) times its size: refused as a decompression bomb "
            + "(if the export is real, set \(allowanceVariable) above its size, e.g. 8G)"
    }

    /// `1.0 MiB`, `64 MiB`, `812 bytes`: a size for messages.
    static func describe(size: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        guard size >= 1024 else { return "\(size) bytes" }
        var unit = 0, scaled = Double(size) / 1024
        while scaled >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        let tenths = Int((scaled * 10).rounded())
        return tenths >= 100 ? "\(tenths / 10) \(units[unit])" : "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
