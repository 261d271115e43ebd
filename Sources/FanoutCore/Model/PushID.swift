/// Firebase push IDs: 20 characters whose first 8 encode the creation time in milliseconds.
public enum PushID {
    private static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// The creation time in seconds since 1970 encoded in `key`, or nil when `key` is not a push ID.
    public static func time(of key: String) -> Double? {
        let bytes = Array(key.utf8)
        guard bytes.count == 20 else { return nil }
        var millis: Int64 = 0
        for byte in bytes.prefix(8) {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            millis = millis * 64 + Int64(digit)
        }
        for byte in bytes.dropFirst(8) where !alphabet.contains(byte) { return nil }
        return Double(millis) / 1000
    }
}
