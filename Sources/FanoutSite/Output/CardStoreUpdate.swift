import FanoutOutput
import FanoutTemplates
import Foundation

/// The card store a build leaves for the next (``CardStore``): written into the staging folder of the site's cache
/// (``SiteCache``) and moved in after the site. A rebuild writes only the cards it rendered, as one new pack, and a new index naming them and the
/// previous cards still current; the packs are folded into one when what they hold is mostly cards no longer
/// current, or there are many of them, so that the store stays about the size of one build's cards.
struct CardStoreUpdate {
    /// The most packs a store is left with before they are folded into one.
    static let packLimit = 8

    /// The steps that move the new store into the folder in place (``StagedFolder/commitInPlace(_:)``), after the
    /// site's: the pack first, then the index that names it, then the packs it no longer names. A run killed among
    /// them leaves an index whose packs are all there (a pack moved in but not yet named is deleted by the next
    /// update).
    let steps: [StagedFolder.Step]

    /// Writes the store of `rendered` cards and `kept` records of `previous` into the cache's staging folder,
    /// `folder`; nil, writing nothing, when the store would be what it was. `inPlace`: the site is updated in place,
    /// so the previous packs stay; else it is replaced whole and the store takes every card in one new pack (the
    /// cache itself is always updated in place: the packs it no longer names are deleted).
    init?(
        rendered: [(key: UInt64, text: String)], kept: [CardStore.Record], previous: CardStore,
        folder: StagedFolder, inPlace: Bool
    ) throws(OutputError) {
        // A post stored twice has one card key for both: one record a key.
        var kept = kept.sorted { $0.key < $1.key }
        kept = kept.indices.filter { $0 == 0 || kept[$0 - 1].key != kept[$0].key }.map { kept[$0] }
        // A rebuild keeps some 250,000 records and renders a few cards: each rendered key is looked for in the
        // sorted records, rather than every record's key put in a set (docs/performance.md "Rebuilds"); packs are few.
        var seen = Set<UInt64>()
        let rendered = rendered.filter { !Self.has(kept, $0.key) && seen.insert($0.key).inserted }
        var keptPacks: [UInt32] = []
        for record in kept where keptPacks.last != record.pack && !keptPacks.contains(record.pack) {
            keptPacks.append(record.pack)
        }
        let keptBytes = kept.reduce(0) { $0 + Int($1.length) }
        let packBytes = Set(previous.records.map(\.pack)).reduce(0) { $0 + (previous.packs[$1]?.bytes.count ?? 0) }
        let fold = !inPlace || packBytes - keptBytes > keptBytes || keptPacks.count >= Self.packLimit
        guard fold || !rendered.isEmpty || kept.count != previous.records.count else { return nil }
        guard !kept.isEmpty || !rendered.isEmpty || inPlace && !previous.records.isEmpty else { return nil }

        let existing = Self.packFiles(in: folder.target)
        let number = (existing.keys.max() ?? 0) + 1
        var records: [CardStore.Record] = fold ? [] : kept
        let pack = try folder.stream(to: CardStore.packName(number))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var offset: UInt64 = 0
        func add(_ key: UInt64, _ bytes: UnsafeRawBufferPointer) throws(OutputError) {
            let hash = StableHasher.hash(bytes.assumingMemoryBound(to: UInt8.self))
            records.append(
                CardStore.Record(key: key, hash: hash, offset: offset, pack: number, length: UInt32(bytes.count)))
            offset += UInt64(bytes.count)
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 20 { try flush() }
        }
        func flush() throws(OutputError) {
            var failure: OutputError?
            buffer.withUnsafeBytes { bytes in
                do throws(OutputError) { try pack.append(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
            buffer.removeAll(keepingCapacity: true)
        }
        // Folding copies the cards kept, each checked against its hash: one that no longer is is dropped, and
        // rendered again by a build that shows it.
        if fold {
            for record in kept {
                if let bytes = previous.bytes(record) { try add(record.key, bytes) }
            }
        }
        for card in rendered {
            var text = card.text
            var failure: OutputError?
            text.withUTF8 { bytes in
                do throws(OutputError) { try add(card.key, UnsafeRawBufferPointer(bytes)) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        try flush()
        try pack.close()
        records.sort { $0.key < $1.key }
        var failure: OutputError?
        CardStore.indexBytes(records).withUnsafeBytes { bytes in
            do throws(OutputError) { try folder.write(bytes, to: CardStore.indexName) } catch { failure = error }
        }
        if let failure { throw failure }
        let named = Set(records.map(\.pack))
        steps =
            [
                .move(from: CardStore.packName(number), to: CardStore.packName(number)),
                .move(from: CardStore.indexName, to: CardStore.indexName),
            ] + existing.filter { !named.contains($0.key) }.map { .delete($0.value) }
    }

    /// Whether `records`, sorted by key, have one of `key`.
    private static func has(_ records: [CardStore.Record], _ key: UInt64) -> Bool {
        var (low, high) = (0, records.count)
        while low < high {
            let middle = (low + high) / 2
            if records[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low < records.count && records[low].key == key
    }

    /// The packs in the cache at `target`, by number.
    private static func packFiles(in target: URL) -> [UInt32: String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: target.appendingPathComponent(CardStore.folder).path))
            ?? []
        var packs: [UInt32: String] = [:]
        for name in names where name.hasPrefix("pack-") {
            if let number = UInt32(name.dropFirst("pack-".count)) { packs[number] = "\(CardStore.folder)/\(name)" }
        }
        return packs
    }
}
