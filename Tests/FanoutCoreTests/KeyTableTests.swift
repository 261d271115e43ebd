import FanoutCore
import FanoutTestSupport
import Testing

@Suite struct KeyTableTests {
    @Test func internsEachKeyOnceAcrossGrowth() {
        var table = KeyTable()
        var ids: [KeyID] = []
        for i in 0..<5000 { ids.append(table.intern("key-\(i)")) }
        #expect(table.count == 5000)
        for i in 0..<5000 {
            #expect(table.intern("key-\(i)") == ids[i])
            #expect(table.lookup("key-\(i)") == ids[i])
            #expect(table.string(ids[i]) == "key-\(i)")
        }
        #expect(table.lookup("missing") == nil)
    }

    @Test func longAndScrambledKeysKeepTheirIds() {
        // Many keys, long keys that differ only after the slot's inline bytes, interned in a scrambled order
        // several times: every key keeps its one id.
        var table = KeyTable()
        let long = String(repeating: "x", count: 60)
        let keys = (0..<20_000).map { "k\($0)" } + (0..<100).map { "\(long)\($0)" } + ["", "-"]
        var ids: [String: KeyID] = [:]
        for key in keys { ids[key] = table.intern(key) }
        #expect(Set(ids.values).count == keys.count)
        var order = Array(keys.indices)
        for round in 0..<3 {
            order = order.map { ($0 * 7919 + round * 104_729) % keys.count }
            for i in order { #expect(table.intern(keys[i]) == ids[keys[i]]) }
        }
        #expect(table.count == keys.count)
        for key in keys { #expect(table.string(ids[key]!) == key) }
    }

    @Test func ordersByUTF8Bytes() {
        var table = KeyTable()
        let a = table.intern("-Ka"), b = table.intern("-Kb"), upper = table.intern("Z"), lower = table.intern("a")
        let prefix = table.intern("-K")
        #expect(table.precedes(a, b))
        #expect(!table.precedes(b, a))
        #expect(table.precedes(upper, lower))
        #expect(table.precedes(prefix, a))
        #expect(!table.precedes(a, a))
    }

    @Test func pathPatternsParseAndRender() {
        let pattern = PathPattern("posts/{poster}/{post}")!
        #expect(pattern.captureNames == ["poster", "post"])
        #expect(pattern.render { $0 == "poster" ? "u1" : "-Kx" } == "posts/u1/-Kx")
        #expect(pattern.description == "posts/{poster}/{post}")
        #expect(PathPattern("") == nil)
        #expect(PathPattern("a//b") == nil)
        #expect(PathPattern("a/{b") == nil)
    }
}

/// Batched interning (`KeyQueue`) must give every key the id that interning it at once gives.
@Suite struct KeyQueueTests {
    @Test func ticketsResolveToTheIdsOfDirectInterning() {
        // Repeats closer together than the queue's depth and farther apart, keys longer than the queue copies
        // (interned at once, between queued ones) and than the table's slots hold, and the empty key.
        let long = String(repeating: "y", count: 70)
        let pool =
            (0..<300).map { "u\($0)" } + (0..<5).map { "\(long)\($0)" }
            + [String(repeating: "z", count: 52), "", "-K"]
        var sequence: [String] = []
        var random = SeededGenerator(seed: 42)
        for i in 0..<20_000 {
            let pick = random.next(pool.count)
            // Every fifth key repeats one of the last few, inside the queue's window.
            sequence.append(i % 5 == 0 && i > 3 ? sequence[i - 1 - random.next(3)] : pool[pick])
        }
        var direct = KeyTable(), batched = KeyTable()
        var queue = KeyQueue()
        var tickets: [KeyID] = []
        let expected = sequence.map { direct.intern($0) }
        for key in sequence {
            var key = key
            tickets.append(key.withUTF8 { queue.ticket(UnsafeRawBufferPointer($0), table: &batched) })
        }
        #expect(tickets == (0..<sequence.count).map { KeyID($0) })
        #expect(queue.ids.count < sequence.count)  // keys were still waiting: the test exercises the queue
        queue.flush(into: &batched)
        #expect(queue.ids == expected)
        #expect(batched.count == direct.count)
        for id in 0..<direct.count { #expect(batched.string(KeyID(id)) == direct.string(KeyID(id))) }
        // After a reset, tickets count from 0 again and the table keeps its ids.
        queue.reset(into: &batched)
        var again = "u7"
        #expect(again.withUTF8 { queue.ticket(UnsafeRawBufferPointer($0), table: &batched) } == 0)
        queue.flush(into: &batched)
        #expect(queue.ids == [direct.intern("u7")])
    }

    @Test func keysOfEveryLengthThroughTheQueueGetTheirDirectIds() {
        // The queue copies keys in whole words padded with zeros, and compares words: every length up to and past
        // what it copies, keys that differ only in their last byte, and keys that differ only by trailing zero
        // bytes (equal once padded; their lengths tell them apart).
        var keys: [[UInt8]] = []
        for length in 0...60 {
            let base = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0 * 7) }
            keys.append(base)
            if length > 0 { keys.append(base.dropLast() + [0x7A]) }
            keys.append(base + [0])
            keys.append(base + [0, 0])
        }
        var direct = KeyTable(), batched = KeyTable()
        var queue = KeyQueue()
        let expected = keys.map { key in key.withUnsafeBytes { direct.intern($0) } }
        #expect(Set(expected).count == Set(keys).count)
        for round in 0..<2 {
            for (i, key) in keys.enumerated() {
                // At every offset of a buffer, so that the words the queue reads are at every alignment.
                let padded = [UInt8](repeating: 0xFF, count: i % 8) + key
                let ticket = padded.withUnsafeBytes {
                    queue.ticket(UnsafeRawBufferPointer(rebasing: $0[(i % 8)...]), table: &batched)
                }
                #expect(ticket == KeyID(round * keys.count + i))
            }
        }
        queue.flush(into: &batched)
        #expect(queue.ids == expected + expected)
        #expect(batched.count == direct.count)
    }
}
