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
