#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decimal-to-binary conversion for number literals.
enum DecimalConversion {
    /// 10^0 ... 10^22, all exactly representable as `Double`.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^0 ... 10^16 as integers.
    static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000,
    ]

    /// The correctly rounded value of `mantissa * 10^exponent` when it can be computed exactly with one IEEE
    /// operation (Clinger's fast path), else nil.
    @inline(__always)
    static func fastPath(mantissa: UInt64, exponent: Int) -> Double? {
        if mantissa == 0 { return 0 }
        if exponent == 0 { return Double(mantissa) }  // UInt64 -> Double conversion is correctly rounded
        let limit: UInt64 = 1 << 53
        guard mantissa <= limit else { return nil }
        if exponent > 0 {
            if exponent <= 22 { return Double(mantissa) * powersOfTen[exponent] }
            // mantissa * 10^(exponent - 22) may still be an exact integer below 2^53.
            let extra = exponent &- 22
            guard extra <= 16 else { return nil }
            let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: integerPowersOfTen[extra])
            guard !overflow, scaled <= limit else { return nil }
            return Double(scaled) * 1e22
        }
        guard exponent >= -22 else { return nil }
        return Double(mantissa) / powersOfTen[-exponent]
    }

    /// Converts a validated JSON number literal of `count` bytes with the C library's correctly rounded `strtod`,
    /// in the "C" locale, from a NUL-terminated copy (on the stack when short).
    static func slowPath(_ literal: UnsafePointer<UInt8>, count: Int) -> Double {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count &+ 1) { buffer -> Double in
                guard let copy = buffer.baseAddress else { return .nan }
                UnsafeMutableRawPointer(copy).copyMemory(from: literal, byteCount: count)
                copy[count] = 0
                if let locale = numericCLocale {
                    let previous = uselocale(locale)
                    let value = strtod(copy, nil)
                    uselocale(previous)
                    return value
                }
                return strtod(copy, nil)
            }
        #else
            let text = String(decoding: UnsafeBufferPointer(start: literal, count: count), as: UTF8.self)
            return Double(text) ?? .nan
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// A "C" numeric locale so that `strtod` always expects `.` as the decimal point, whatever `setlocale` did.
    nonisolated(unsafe) private let numericCLocale = newlocale(LC_NUMERIC_MASK, "C", nil)
#endif
