/// Firebase push IDs: 20 characters whose first 8 encode the creation time in milliseconds.
package enum PushID {
    private static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// The value of each byte in the push ID alphabet, or -1.
    private static let digits: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
        return table
    }()

    /// The creation time in seconds since 1970 encoded in `key`, or nil when `key` is not a push ID.
    package static func time(of key: String) -> Double? {
        var key = key
        return key.withUTF8 { time(of: UnsafeRawBufferPointer($0)) }
    }

    /// The creation time encoded in the key's bytes, or nil when they are not a push ID.
    package static func time(of bytes: UnsafeRawBufferPointer) -> Double? {
        // Every push ID made before 2109 starts with "-" (its first digit is the time's top six of 48 bits), and
        // no Firestore auto-ID does (20 letters and digits), so the two are told apart.
        guard bytes.count == 20, bytes[0] == UInt8(ascii: "-") else { return nil }
        var millis: Int64 = 0
        for i in 0..<20 {
            let digit = digits[Int(bytes[i])]
            guard digit >= 0 else { return nil }
            if i < 8 { millis = millis * 64 + Int64(digit) }
        }
        return Double(millis) / 1000
    }
}
