/// The file names of earlier Fanouts (a slug, `~` and the top 48 bits of the key's FNV-1a hash), which two
/// keys could share, and keys that shared one: what the tests of today's names (docs/site.md "File names") show
/// no longer collides.
public enum OldFileNames {
    /// Pairs of keys that had one old name: the same slug, since they share their first 40 characters, and the same
    /// hash, found by a birthday search over the 2^27 keys of this shape that end in `00000000` to `07ffffff` (a
    /// small C program: the old hash of each, packed with the key's low bits into one 64-bit word, sorted, equal
    /// neighbours' keys found again). Keys of one length that differ only in their case or in a few symbols
    /// gave none in as many tries.
    public static let collisions = [
        ["VictimVictimVictimVictimVictimVictimVict00cc58fa", "VictimVictimVictimVictimVictimVictimVict0481162f"],
        ["VictimVictimVictimVictimVictimVictimVict00cc58ff", "VictimVictimVictimVictimVictimVictimVict0481162e"],
        ["VictimVictimVictimVictimVictimVictimVict00cc58fd", "VictimVictimVictimVictimVictimVictimVict0481162c"],
    ]

    /// The name the old scheme gave `key` (when it was not plain): ``slug(_:)``, `~` and 48 bits of FNV-1a in hex.
    public static func name(_ key: String) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in key.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h >> 16, radix: 16)
        return slug(key) + "~" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// The readable part of an old name, which today's hashed names still begin with: the first 40 scalars, ASCII
    /// letters lower-cased, letters, digits, `-` and `_` kept, every run of other scalars one `-`.
    public static func slug(_ key: String) -> String {
        var slug = ""
        for scalar in key.unicodeScalars.prefix(40) {
            if scalar.isASCII, let c = Character(scalar).lowercased().first,
                c.isLetter || c.isNumber || c == "-" || c == "_"
            {
                slug.append(c)
            } else if slug.last != "-" {
                slug.append("-")
            }
        }
        return slug
    }
}
