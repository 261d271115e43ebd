import FanoutCore
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

    @Test func recentKeyCacheNeverConfusesKeys() {
        // More keys than cache lines, long keys that differ only after the inline bytes, interned in a
        // scrambled order several times: every key keeps its one id.
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
