import CPrefetch
import FanoutTemplates
import Foundation

/// The post cards the previous build made, kept in the site's cache beside its manifest (``SiteCache``), so that a rebuild reads a
/// card whose inputs did not change instead of rendering it again (docs/site.md "Rebuilds, progress and timings").
/// A full build makes each card once and shows it on every timeline that lists the post; a rebuild renders a few
/// pages of many timelines, whose cards it would otherwise make for one or two pages each.
///
/// A card is found by its key, a hash of everything its text is made from (``CardCache/key(_:markdown:)``), so a
/// changed post, poster, like count, template or renderer gives a key the store does not have. Layout
/// (`cards/` in the cache): `index`, the line `fanout-cards 01` then one 32-byte record a card, sorted by key (key,
/// content hash, offset, pack, length; little-endian); and `pack-<n>` files holding the cards' bytes one after
/// another. A rebuild adds one pack of the cards it made and a new index, and folds the packs into one when they
/// hold more dropped cards than kept ones (``CardStoreUpdate``). Anything unreadable is no card: a missing or bad
/// index is an empty store, and a card whose bytes do not hash to its record's hash is rendered again.
final class CardStore: @unchecked Sendable {  // read-only once made
    static let folder = "cards"
    static let indexName = folder + "/index"
    static let header = Array("fanout-cards 01\n".utf8)
    static let recordSize = 32

    /// One card: where its bytes are and what they hash to.
    struct Record: Equatable {
        var key: UInt64
        var hash: UInt64
        var offset: UInt64
        var pack: UInt32
        var length: UInt32
    }

    /// The records, sorted by key.
    let records: [Record]
    /// For each value of a key's top 16 bits, the place of the first record whose key's top bits are that value or
    /// more (and the number of records after the last): a look-up searches the few records of its key's top bits.
    private let directory: [UInt32]
    /// The packs by number, mapped; a pack that cannot be read is missing, and its records find nothing.
    let packs: [UInt32: Pack]

    /// A read-only mapping of one pack file.
    final class Pack: @unchecked Sendable {  // the mapping is only read
        let bytes: UnsafeRawBufferPointer

        init?(path: String) {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            let size = Int(info.st_size)
            guard size > 0 else {
                bytes = UnsafeRawBufferPointer(start: nil, count: 0)
                return
            }
            guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
            bytes = UnsafeRawBufferPointer(start: base, count: size)
        }

        deinit {
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        }
    }

    init(records: [Record] = [], packs: [UInt32: Pack] = [:]) {
        self.records = records
        self.packs = packs
        var directory = [UInt32](repeating: 0, count: records.isEmpty ? 0 : Self.directorySize + 1)
        if !records.isEmpty {
            var next = 0
            for (i, record) in records.enumerated() {
                let top = Int(record.key >> 48)
                while next <= top {
                    directory[next] = UInt32(i)
                    next += 1
                }
            }
            while next <= Self.directorySize {
                directory[next] = UInt32(records.count)
                next += 1
            }
        }
        self.directory = directory
    }

    private static let directorySize = 1 << 16

    /// The store in the site's cache at `folder`; empty when it has none or its index cannot be read.
    static func read(in folder: URL) -> CardStore {
        guard let index = FileManager.default.contents(atPath: folder.appendingPathComponent(indexName).path),
            let records = parse(Array(index))
        else { return CardStore() }
        var packs: [UInt32: Pack] = [:]
        for number in Set(records.map(\.pack)) {
            packs[number] = Pack(path: folder.appendingPathComponent(packName(number)).path)
        }
        return CardStore(records: records, packs: packs)
    }

    static func packName(_ number: UInt32) -> String { "\(folder)/pack-\(number)" }

    /// The records of an index's bytes, or nil when they are not an index (wrong header, length or order).
    static func parse(_ bytes: [UInt8]) -> [Record]? {
        guard bytes.starts(with: header), (bytes.count - header.count) % recordSize == 0 else { return nil }
        let count = (bytes.count - header.count) / recordSize
        var records: [Record] = []
        records.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for i in 0..<count {
                let at = header.count + i * recordSize
                func word(_ offset: Int) -> UInt64 {
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + offset, as: UInt64.self))
                }
                records.append(
                    Record(
                        key: word(0), hash: word(8), offset: word(16), pack: UInt32(truncatingIfNeeded: word(24)),
                        length: UInt32(truncatingIfNeeded: word(24) >> 32)))
            }
        }
        guard zip(records, records.dropFirst()).allSatisfy({ $0.key < $1.key }) else { return nil }
        return records
    }

    /// The bytes of an index of `records` (sorted by key, one each).
    static func indexBytes(_ records: [Record]) -> [UInt8] {
        var out = header
        out.reserveCapacity(header.count + records.count * recordSize)
        func append(_ word: UInt64) { withUnsafeBytes(of: word.littleEndian) { out.append(contentsOf: $0) } }
        for record in records {
            append(record.key)
            append(record.hash)
            append(record.offset)
            append(UInt64(record.pack) | UInt64(record.length) << 32)
        }
        return out
    }

    /// The record of the card whose key is `key`, if the store has one.
    func record(_ key: UInt64) -> Record? {
        // Keys are hashes, spread evenly: the directory narrows the search to the records sharing the key's top 16
        // bits, a few for a store of a few hundred thousand, rather than the whole index, most of whose levels are
        // cache misses (a rebuild reads a hundred thousand cards). A window around `count × key / 2⁶⁴` missed by
        // hundreds of records as often as not, and each widening cost more misses (docs/performance.md "Rebuilds").
        guard !records.isEmpty else { return nil }
        let top = Int(key >> 48)
        var (low, high) = (Int(directory[top]), Int(directory[top + 1]))
        while low < high {
            let mid = (low + high) / 2
            if records[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low < records.count && records[low].key == key ? records[low] : nil
    }

    /// Asks for the cache lines a look-up of `keys` reads (``record(_:)``), in two rounds (the directory's places,
    /// then the records they point to), so that the look-ups of a page's cards wait for their misses together
    /// rather than one after another (docs/performance.md "Rebuilds").
    func prefetch(_ keys: [UInt64]) {
        guard !records.isEmpty else { return }
        directory.withUnsafeBufferPointer { directory in
            for key in keys { fanout_prefetch(directory.baseAddress! + Int(key >> 48)) }
            records.withUnsafeBufferPointer { records in
                for key in keys {
                    let start = Int(directory[Int(key >> 48)])
                    if start < records.count { fanout_prefetch(records.baseAddress! + start) }
                }
            }
        }
    }

    /// The records of those of `keys` the store has, found by one walk of both in order rather than a search
    /// each: a build looks up every post's cards it did not show.
    func records(_ keys: [UInt64]) -> [Record] {
        var found: [Record] = []
        var i = 0
        for key in keys.sorted() {
            while i < records.count && records[i].key < key { i += 1 }
            if i == records.count { break }
            if records[i].key == key { found.append(records[i]) }
        }
        return found
    }

    /// The bytes `record` names, when its pack holds them and they hash to what it says.
    func bytes(_ record: Record) -> UnsafeRawBufferPointer? {
        guard let pack = packs[record.pack]?.bytes, record.offset <= UInt64(pack.count),
            UInt64(record.length) <= UInt64(pack.count) - record.offset
        else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: pack[Int(record.offset)..<Int(record.offset) + Int(record.length)])
        guard StableHasher.hash(slice.assumingMemoryBound(to: UInt8.self)) == record.hash else { return nil }
        return slice
    }

    /// The text of the card whose key is `key`, if the store has it intact.
    func card(_ key: UInt64) -> (String, Record)? {
        guard let record = record(key), let bytes = bytes(record) else { return nil }
        return (String(decoding: bytes, as: UTF8.self), record)
    }
}
