/// Stable identities of findings across runs, for SARIF's `partialFingerprints`.
enum Fingerprint {
    /// A 64-bit FNV-1a hash of the rule and the first path, as 16 hex digits. It depends on nothing else (no
    /// message, no severity, no line), so a finding keeps its identity while its counts change.
    static func of(rule: String, path: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in rule.utf8 + [0] + path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
