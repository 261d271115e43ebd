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

    /// A 64-bit FNV-1a hash of `bytes`, stable across runs and platforms.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }
}
