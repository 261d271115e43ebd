import Foundation

/// What the previous build wrote, kept in the output folder so the next build can tell which pages it need not
/// render again (docs/site.md "Rebuilds, progress and timings"): for every file, its input key (a hash of everything
/// the page shows, see ``PageSource``) and the hash of its content.
///
/// Format (`.fanout-manifest`): the line `fanout-manifest 2`, then one line per file,
/// `<input key, 16 hex digits> <content hash, 16 hex digits> <relative path>`, sorted by path. A manifest of
/// Fanout before input keys (lines `<content hash> <path>`) still gives content hashes: its pages are all
/// rendered once, and those whose content did not change are kept.
struct BuildManifest: Sendable {
    static let fileName = ".fanout-manifest"
    static let header = "fanout-manifest 2"

    /// One file of the build.
    struct Entry: Sendable, Equatable {
        /// Nil for a file recorded by a manifest without input keys.
        var inputKey: UInt64?
        var contentHash: UInt64
    }

    /// The files, in the manifest's order, and their entries.
    private(set) var paths: [String] = []
    private(set) var entries: [Entry] = []
    /// Each path's place in ``paths``.
    private var slots: [String: Int] = [:]

    init() {}

    /// The manifest's text in the folder at `url`; nil when it has none or it cannot be read (then everything is
    /// rendered and written, which is always correct).
    static func text(in url: URL) -> String? {
        try? String(contentsOf: url.appendingPathComponent(fileName), encoding: .utf8)
    }

    /// The manifest `text` says; lines it cannot read are left out (their pages are rendered again).
    init(text: String) {
        var text = text
        text.withUTF8 { bytes in
            var lines = bytes.split(separator: 0x0A)[...]
            let keyed = lines.first.map { String(decoding: $0, as: UTF8.self) == Self.header } ?? false
            if keyed { lines = lines.dropFirst() }
            paths.reserveCapacity(lines.count)
            entries.reserveCapacity(lines.count)
            slots.reserveCapacity(lines.count)
            for line in lines {
                // `<key> <hash> <path>`, or `<hash> <path>`: fixed-width hex fields, then the path.
                let pathStart = line.startIndex + (keyed ? 34 : 17)
                guard line.count > pathStart - line.startIndex else { continue }
                let key = keyed ? Self.hex(line[line.startIndex..<line.startIndex + 16]) : nil
                let hashStart = line.startIndex + (keyed ? 17 : 0)
                guard let hash = Self.hex(line[hashStart..<hashStart + 16]), line[pathStart - 1] == 0x20,
                    !keyed || (key != nil && line[line.startIndex + 16] == 0x20)
                else { continue }
                let path = String(decoding: line[pathStart...], as: UTF8.self)
                guard slots[path] == nil else { continue }
                slots[path] = paths.count
                paths.append(path)
                entries.append(Entry(inputKey: key, contentHash: hash))
            }
        }
    }

    var count: Int { paths.count }

    /// Whether ``paths`` are in the order ``text(_:)`` writes (a manifest Fanout wrote is), so that a new
    /// manifest can merge into them rather than sort all of them again.
    var isSorted: Bool { zip(paths, paths.dropFirst()).allSatisfy { $0 < $1 } }

    /// The place of `path`'s entry, if the manifest has one.
    func slot(of path: String) -> Int? { slots[path] }

    /// The text of a manifest of `files`, sorted by path; `sorted`: they are already.
    static func text(_ files: [(path: String, entry: Entry)], sorted: Bool = false) -> String {
        // Bytes, not string pieces: a rebuild writes a manifest of 180,000 lines twice.
        var out = Array((header + "\n").utf8)
        out.reserveCapacity(files.count * 80)
        func hex(_ value: UInt64) {
            for shift in stride(from: 60, through: 0, by: -4) {
                out.append(hexDigits[Int(value >> UInt64(shift) & 0xF)])
            }
        }
        for (path, entry) in sorted ? files : files.sorted(by: { $0.path < $1.path }) {
            hex(entry.inputKey ?? 0)
            out.append(0x20)
            hex(entry.contentHash)
            out.append(0x20)
            out.append(contentsOf: path.utf8)
            out.append(0x0A)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Sixteen lower-case or upper-case hex digits as a number.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case 0x30...0x39: nibble = digit - 0x30
            case 0x61...0x66: nibble = digit - 0x61 + 10
            case 0x41...0x46: nibble = digit - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }
}
