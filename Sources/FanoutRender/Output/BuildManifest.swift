import Foundation

/// The content hash of every file a build wrote, kept in the output folder so the next build can tell which
/// pages changed.
///
/// Format (`.fanout-manifest`): one line per file, `<16 hex digits> <relative path>`, sorted by path.
struct BuildManifest: Sendable {
    static let fileName = ".fanout-manifest"

    private(set) var hashes: [String: UInt64] = [:]

    init() {}

    /// Reads the manifest of the folder at `url`; a missing or unreadable manifest is empty (everything is
    /// rewritten, which is always correct).
    init(folder url: URL) {
        guard let text = try? String(contentsOf: url.appendingPathComponent(Self.fileName), encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let hash = UInt64(line[..<space], radix: 16) else { continue }
            hashes[String(line[line.index(after: space)...])] = hash
        }
    }

    mutating func record(_ path: String, _ hash: UInt64) { hashes[path] = hash }

    /// The manifest's text.
    var text: String {
        hashes.sorted { $0.key < $1.key }.map { path, hash in
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + " " + path
        }.joined(separator: "\n") + "\n"
    }

    /// A 64-bit hash of `bytes`, stable across runs and platforms: 16 bytes a step, each step folding the
    /// 128-bit product of two words (the mixing of wyhash), so hashing a 35 KB page costs about as much as
    /// copying it, where a byte-at-a-time hash showed up in build profiles.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var h = seed ^ UInt64(count)
        guard let base = bytes.baseAddress else { return fold(h ^ p1, p2) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 16 <= count {
            let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            h = fold(a ^ p1, b ^ h) ^ h
            offset += 16
        }
        var a: UInt64 = 0
        var b: UInt64 = 0
        for i in 0..<(count - offset) {
            let byte = UInt64(bytes[offset + i])
            if i < 8 { a |= byte << (8 * UInt64(i)) } else { b |= byte << (8 * UInt64(i - 8)) }
        }
        h = fold(a ^ p1, b ^ h) ^ h
        return fold(h ^ p2, UInt64(count) ^ p1)
    }

    private static let seed: UInt64 = 0x243F_6A88_85A3_08D3
    private static let p1: UInt64 = 0xA076_1D64_78BD_642F
    private static let p2: UInt64 = 0xE703_7ED1_A0B4_28DB

    /// The two halves of `a × b`, xor-ed.
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }
}
