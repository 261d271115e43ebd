import CPrefetch
import FanoutTemplates
import Foundation

/// What the previous build wrote, kept in the site's cache (``SiteCache``) so the next build can tell which pages it need not
/// render again (docs/site.md "Rebuilds, progress and timings"): for every file, its input key (a hash of everything
/// the page shows, see ``PageSource``) and the hash of its content.
///
/// Format (`manifest` in the cache): the line `fanout-manifest 2`, then one line per file,
/// `<input key, 16 hex digits> <content hash, 16 hex digits> <relative path>`, sorted by the paths' UTF-8 bytes. A
/// manifest of Fanout before input keys (lines `<content hash> <path>`) still gives content hashes: its pages are all
/// rendered once, and those whose content did not change are kept.
///
/// A rebuild reads the manifest of a site of 232,822 files while it reads the export, and looks up every page it
/// makes and every file of the folder in it: the paths stay bytes of the one file read, looked up through a table of
/// their hashes, rather than a `String` and a dictionary entry each (docs/performance.md "Rebuilds").
struct BuildManifest: Sendable {
    static let fileName = "manifest"
    static let header = "fanout-manifest 2"

    /// One file of the build.
    struct Entry: Sendable, Equatable {
        /// Nil for a file recorded by a manifest without input keys.
        var inputKey: UInt64?
        var contentHash: UInt64

        /// The entry of a file a rebuild was changing when it stopped (``init(bytes:changing:)``): no input key, and a
        /// content hash no page has but by the chance every content hash takes, so the file is rendered again, and
        /// deleted when no page has its path any more.
        static let unknown = Entry(inputKey: nil, contentHash: 0)
    }

    /// The lines read, or made by ``init(text:)``: every path is a range of these bytes.
    private var bytes: [UInt8] = []
    /// Each file's path, as its start and end in ``bytes``, in the manifest's order.
    private var pathStarts: [Int32] = []
    private var pathEnds: [Int32] = []
    /// Each file's entry, in the manifest's order.
    private(set) var entries: [Entry] = []
    /// The table of paths by hash, two words a bucket (``HashTable``).
    private var buckets: [UInt64] = []
    /// Whether the paths are in the order ``Writer`` writes them (a manifest Fanout wrote is), so that a new manifest
    /// can merge into them rather than sort all of them again.
    private(set) var isSorted = true

    init() {}

    /// The manifest's bytes in `cache`; nil when it has none or it cannot be read (then everything is rendered and
    /// written, which is always correct).
    static func bytes(in cache: SiteCache) -> [UInt8]? { FileBytes.contents(of: cache.file(fileName)) }

    /// The manifest `text` says (``init(bytes:changing:)``).
    init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// The manifest `bytes` say; lines it cannot read are left out (their pages are rendered again). The files of
    /// `changing`, the paths a rebuild that stopped before its end was changing (``SiteOutput/changingName``), get the entry
    /// ``Entry/unknown`` whatever the manifest says of them.
    init(bytes: [UInt8], changing: [String] = []) {
        self.bytes = bytes
        var starts: [Int32] = []
        var ends: [Int32] = []
        var entries: [Entry] = []
        // A manifest's lines are about 80 bytes (87 for the benchmark's site): a table at most half full, and no
        // larger than that, since a rebuild looks up every page in it and its misses in the cache are most of that.
        let estimate = bytes.count / 80 + 1
        starts.reserveCapacity(estimate)
        ends.reserveCapacity(estimate)
        entries.reserveCapacity(estimate)
        var table = HashTable(capacity: estimate)
        var sorted = true
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress, all.count < Int(Int32.max) else { return }
            let end = all.count
            let headerBytes = Array(Self.header.utf8)
            var lineStart = 0
            var keyed = false
            var first = true
            var previous: (start: Int, end: Int)?
            while lineStart < end {
                let newline =
                    memchr(base + lineStart, 0x0A, end - lineStart).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? end
                defer { lineStart = newline + 1 }
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<newline])
                if first {
                    first = false
                    if line.elementsEqual(headerBytes) {
                        keyed = true
                        continue
                    }
                }
                // `<key> <hash> <path>`, or `<hash> <path>`: fixed-width hex fields, then the path.
                let pathOffset = keyed ? 34 : 17
                guard line.count > pathOffset, line[pathOffset - 1] == 0x20, !keyed || line[16] == 0x20,
                    let hash = Self.hex(line, at: keyed ? 17 : 0)
                else { continue }
                let key = keyed ? Self.hex(line, at: 0) : nil
                if keyed && key == nil { continue }
                let path = UnsafeBufferPointer(rebasing: line[pathOffset...])
                let slot = entries.count
                guard table.insert(slot: slot, path: path, in: all) else { continue }
                let pathStart = lineStart + pathOffset
                if let previous, sorted {
                    sorted = Self.precedes(UnsafeBufferPointer(rebasing: all[previous.start..<previous.end]), path)
                }
                previous = (pathStart, newline)
                starts.append(Int32(pathStart))
                ends.append(Int32(newline))
                entries.append(Entry(inputKey: key, contentHash: hash))
            }
        }
        pathStarts = starts
        pathEnds = ends
        self.entries = entries
        buckets = table.buckets
        isSorted = sorted
        if !changing.isEmpty { markChanging(changing) }
    }

    /// Gives `paths` the entry ``Entry/unknown``, adding those the manifest does not have.
    private mutating func markChanging(_ paths: [String]) {
        // One table for all of them, taken out of `buckets` so that adding to it copies nothing.
        var table = HashTable(buckets: buckets, count: entries.count + paths.count)
        buckets = []
        for var path in paths where !path.isEmpty {
            let known = path.withUTF8 { path in
                bytes.withUnsafeBufferPointer { all in
                    HashTable.find(path, hash: StableHasher.hash(path), buckets: table.buckets, in: all)
                }
            }
            if let known {
                entries[known] = .unknown
                continue
            }
            let start = bytes.count
            bytes.append(contentsOf: path.utf8)
            // Not in the order of the rest: the next manifest is sorted whole.
            isSorted = false
            pathStarts.append(Int32(start))
            pathEnds.append(Int32(bytes.count))
            entries.append(.unknown)
            bytes.withUnsafeBufferPointer { all in
                _ = table.insert(slot: entries.count - 1, path: UnsafeBufferPointer(rebasing: all[start...]), in: all)
            }
        }
        buckets = table.buckets
    }

    var count: Int { entries.count }

    /// The path of the file at `slot`.
    func path(_ slot: Int) -> String {
        String(decoding: bytes[Int(pathStarts[slot])..<Int(pathEnds[slot])], as: UTF8.self)
    }

    /// The place of `path`'s entry, if the manifest has one; `hash`: ``lookUp(_:)``'s for `path`, when it was asked
    /// for before.
    func slot(of path: String, hash: UInt64? = nil) -> Int? {
        var path = path
        return path.withUTF8 { slot(ofBytes: $0, hash: hash) }
    }

    /// The place of the entry of the path whose UTF-8 bytes are `path`, if the manifest has one.
    func slot(ofBytes path: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil) -> Int? {
        guard !buckets.isEmpty, !path.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            HashTable.find(path, hash: hash ?? StableHasher.hash(path), buckets: buckets, in: all)
        }
    }

    /// The hash ``slot(of:hash:)`` looks `path` up by, its bucket asked of the memory now: a rebuild asks before it
    /// makes the page's input key, and looks the page up after, when the bucket has come (docs/performance.md
    /// "Rebuilds").
    func lookUp(_ path: String) -> UInt64 {
        var path = path
        let hash = path.withUTF8 { StableHasher.hash($0) }
        if !buckets.isEmpty { buckets.withUnsafeBufferPointer { HashTable.prefetch(hash, in: $0) } }
        return hash
    }

    /// Whether the path at `slot` comes before `path` in the manifest's order.
    func path(_ slot: Int, precedes path: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            Self.precedes(UnsafeBufferPointer(rebasing: all[Int(pathStarts[slot])..<Int(pathEnds[slot])]), path)
        }
    }

    /// The order of a manifest's lines: by the paths' UTF-8 bytes (the code points' order).
    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }

    /// ``precedes(_:_:)`` of two strings.
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { a in b.withUTF8 { b in precedes(a, b) } }
    }

    /// The text of a manifest of `files`, sorted by path; `sorted`: they are already.
    static func text(_ files: [(path: String, entry: Entry)], sorted: Bool = false) -> String {
        var writer = Writer(capacity: files.count)
        for file in sorted ? files : files.sorted(by: { precedes($0.path, $1.path) }) {
            writer.append(file.path, file.entry)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A manifest's bytes, line by line, in the order they are given: bytes, not string pieces, since a rebuild
    /// writes a manifest of every file of the site.
    struct Writer {
        private(set) var bytes: [UInt8]

        init(capacity: Int) {
            bytes = Array((BuildManifest.header + "\n").utf8)
            bytes.reserveCapacity(capacity * 80 + bytes.count)
        }

        mutating func append(_ path: String, _ entry: Entry) {
            line(entry)
            bytes.append(contentsOf: path.utf8)
            bytes.append(0x0A)
        }

        /// The line of `manifest`'s file at `slot`: a file carried over, whose line is the one `manifest` has (a file
        /// can be carried over only on an input key, so its line is of this format), copied whole.
        mutating func append(carried slot: Int, of manifest: BuildManifest) {
            let (start, end) = (Int(manifest.pathStarts[slot]), Int(manifest.pathEnds[slot]))
            guard manifest.entries[slot].inputKey != nil, start >= 34 else {
                line(manifest.entries[slot])
                bytes.append(contentsOf: manifest.bytes[start..<end])
                bytes.append(0x0A)
                return
            }
            // The fields before the path, the path, and its newline (the last line may lack one).
            bytes.append(contentsOf: manifest.bytes[(start - 34)..<end])
            bytes.append(0x0A)
        }

        private mutating func line(_ entry: Entry) {
            hex(entry.inputKey ?? 0)
            bytes.append(0x20)
            hex(entry.contentHash)
            bytes.append(0x20)
        }

        private mutating func hex(_ value: UInt64) {
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(BuildManifest.hexDigits[Int(value >> UInt64(shift) & 0xF)])
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The sixteen lower-case or upper-case hex digits of `line` at `offset`, as a number.
    private static func hex(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64? {
        var value: UInt64 = 0
        var invalid: UInt8 = 0
        hexValues.withUnsafeBufferPointer { values in
            for i in offset..<offset + 16 {
                let nibble = values[Int(line[i])]
                invalid |= nibble
                value = value << 4 | UInt64(nibble & 0xF)
            }
        }
        // A byte that is no hex digit has the high bit.
        return invalid & 0x80 == 0 ? value : nil
    }

    /// Each byte's value as a hex digit, or 0x80 for a byte that is none: a table rather than a test of ranges per
    /// digit, as a manifest has two fields of sixteen digits on each of its lines.
    private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case 0x30...0x39: UInt8(byte) - 0x30
        case 0x61...0x66: UInt8(byte) - 0x61 + 10
        case 0x41...0x46: UInt8(byte) - 0x41 + 10
        default: 0x80
        }
    }
}

/// The table of ``BuildManifest``'s paths by their hash (``StableHasher/hash(_:)``): open addressing over a power of
/// two of buckets, at most half full, each two words: the path's slot + 1 (0 for an empty bucket) in the low 32 bits
/// of the first and its hash's high 32 bits above them, which most probes compare alone; the path's start in the
/// manifest's bytes and its length in the second. A look-up reads one bucket and the path's bytes, two places in
/// memory rather than the four of a table of slots beside arrays of starts and ends.
private struct HashTable {
    private(set) var buckets: [UInt64]
    private var mask: Int

    /// An empty table for about `capacity` paths.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        buckets = [UInt64](repeating: 0, count: 2 * size)
        mask = size - 1
    }

    /// The table `buckets`, made larger when `count` paths would fill more than half of it.
    init(buckets: [UInt64], count: Int) {
        self.buckets = buckets.isEmpty ? [UInt64](repeating: 0, count: 32) : buckets
        mask = self.buckets.count / 2 - 1
        if 2 * count > self.buckets.count / 2 { self = Self(capacity: count, rehashing: self.buckets) }
    }

    private init(capacity: Int, rehashing old: [UInt64]) {
        self.init(capacity: capacity)
        for i in stride(from: 0, to: old.count, by: 2) where old[i] & 0xFFFF_FFFF != 0 {
            // A path's first bucket comes from the hash's high half, which the bucket keeps.
            var j = Self.start(old[i] >> 32, mask: mask)
            while buckets[2 * j] != 0 { j = (j + 1) & mask }
            buckets[2 * j] = old[i]
            buckets[2 * j + 1] = old[i + 1]
        }
    }

    private static func start(_ high: UInt64, mask: Int) -> Int { Int(truncatingIfNeeded: high) & mask }

    /// Adds the path `path` (bytes of `all`) as `slot`, unless the table has it already (then false).
    mutating func insert(slot: Int, path: UnsafeBufferPointer<UInt8>, in all: UnsafeBufferPointer<UInt8>) -> Bool {
        if 2 * (slot + 1) > buckets.count / 2 { self = Self(capacity: slot + 1, rehashing: buckets) }
        let high = StableHasher.hash(path) >> 32
        let mask = mask
        return buckets.withUnsafeMutableBufferPointer { table in
            var i = Self.start(high, mask: mask)
            while table[2 * i] != 0 {
                if table[2 * i] >> 32 == high, Self.same(path, table[2 * i + 1], all) { return false }
                i = (i + 1) & mask
            }
            table[2 * i] = high << 32 | UInt64(slot + 1)
            table[2 * i + 1] = UInt64(path.baseAddress! - all.baseAddress!) << 32 | UInt64(path.count)
            return true
        }
    }

    /// The slot of `path` in the table `buckets`, if it has it.
    static func find(
        _ path: UnsafeBufferPointer<UInt8>, hash: UInt64, buckets: [UInt64], in all: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        let mask = buckets.count / 2 - 1
        let high = hash >> 32
        return buckets.withUnsafeBufferPointer { table in
            var i = start(high, mask: mask)
            while true {
                let bucket = table[2 * i]
                if bucket == 0 { return nil }
                if bucket >> 32 == high, same(path, table[2 * i + 1], all) { return Int(bucket & 0xFFFF_FFFF) - 1 }
                i = (i + 1) & mask
            }
        }
    }

    /// Asks for the cache line of the first bucket of the path of `hash` in the table `buckets`.
    static func prefetch(_ hash: UInt64, in buckets: UnsafeBufferPointer<UInt64>) {
        fanout_prefetch(buckets.baseAddress! + 2 * start(hash >> 32, mask: buckets.count / 2 - 1))
    }

    /// Whether `path` is the path a bucket's second word places in `all`.
    private static func same(_ path: UnsafeBufferPointer<UInt8>, _ place: UInt64, _ all: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        Int(place & 0xFFFF_FFFF) == path.count
            && memcmp(all.baseAddress! + Int(place >> 32), path.baseAddress!, path.count) == 0
    }
}

/// A whole file's bytes, read straight into one array (the manifest of a large site is 20 MB; through `Data` it was
/// read and then copied).
enum FileBytes {
    /// The bytes of the regular file at `path`, or nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        // One more byte than the size, so that a file that grew since is read on to its end.
        var chunk = max(Int(info.st_size), 0) + 1
        while true {
            var failed = false
            let part = [UInt8](unsafeUninitializedCapacity: chunk) { buffer, count in
                count = 0
                while count < chunk {
                    let n = read(fd, buffer.baseAddress! + count, chunk - count)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failed = true }
                    if n <= 0 { break }
                    count += n
                }
            }
            if failed { return nil }
            if bytes.isEmpty { bytes = part } else { bytes += part }
            if part.count < chunk { return bytes }
            chunk = 1 << 16
        }
    }
}
