import Testing

@testable import FanoutSite

/// The card store's index (docs/site.md "Rebuilds, progress and timings") is read back as written, and anything else
/// is no index: a rebuild then renders its cards instead of trusting bytes it cannot account for.
@Suite struct CardStoreTests {
    private let records = [
        CardStore.Record(key: 3, hash: 0xDEAD_BEEF, offset: 0, pack: 1, length: 900),
        CardStore.Record(key: 7, hash: .max, offset: 900, pack: 1, length: 0),
        CardStore.Record(key: .max, hash: 1, offset: 1 << 40, pack: .max, length: .max),
    ]

    @Test func anIndexReadsBackAsWritten() {
        let bytes = CardStore.indexBytes(records)
        #expect(bytes.count == CardStore.header.count + records.count * CardStore.recordSize)
        #expect(CardStore.parse(bytes) == records)
        #expect(CardStore.parse(CardStore.indexBytes([])) == [])
        let store = CardStore(records: CardStore.parse(bytes)!)
        #expect(store.record(7) == records[1] && store.record(.max) == records[2] && store.record(5) == nil)
    }

    @Test func whatIsNotAnIndexIsNone() {
        let bytes = CardStore.indexBytes(records)
        #expect(CardStore.parse(Array(bytes.dropLast())) == nil, "cut short")
        #expect(CardStore.parse(Array(bytes.dropFirst())) == nil, "no header")
        #expect(CardStore.parse(Array("fanout-cards 02\n".utf8) + bytes.dropFirst(16)) == nil, "another version")
        #expect(CardStore.parse(CardStore.indexBytes(records.reversed())) == nil, "out of order")
        #expect(CardStore.parse(CardStore.indexBytes([records[0], records[0]])) == nil, "a key twice")
    }

    @Test func aCardWhosePackIsMissingIsNone() {
        let store = CardStore(records: records)
        #expect(store.card(3) == nil && store.card(7) == nil)
    }

    /// Cards are found among the records sharing their key's top 16 bits, and a walk finds a list of keys at once: both
    /// find what a search of every record finds, on an index of evenly spread keys as on one of bunched keys (all
    /// with the same top bits), and at the ends of the keys' range.
    @Test func lookUpsFindWhatAFullSearchFinds() {
        var random = SystemRandomNumberGenerator()
        for spread in [true, false] {
            let keys = Set((0..<5000).map { _ in spread ? random.next() as UInt64 : UInt64.random(in: 0..<9000) })
                .union(spread ? [0, 1, .max - 1, 0xFFFF << 48, 0x1_0000_0000_0000] : [])
            let records = keys.sorted().enumerated().map { i, key in
                CardStore.Record(key: key, hash: UInt64(i), offset: 0, pack: 1, length: 1)
            }
            let store = CardStore(records: records)
            let probes =
                Array(keys.prefix(300)) + (0..<300).map { _ in spread ? random.next() : .random(in: 0..<9000) }
                + [0, 1, 2, .max, .max - 1, 0xFFFF << 48, (0xFFFF << 48) - 1, 0x1_0000_0000_0000]
            for key in probes {
                #expect(store.record(key) == records.first { $0.key == key }, "\(key)")
            }
            #expect(store.records(Array(Set(probes))) == records.filter { Set(probes).contains($0.key) })
        }
    }
}
