import FanoutTestSupport
import Testing

@testable import FanoutJSON

@Suite("Mutated documents")
struct MutationTests {
    static let seeds: [String] = [
        #"{"posts":{"u1":{"-Kp":{"created_at":1490119356.786182,"image_url":"https://x/y?a=1","like_count":4,"poster":{"uid":"u1","username":"ann"}}}}}"#,
        #"[1.5, -0.0, 1e999, 374.9999999999999, 12345678901234567890, "a\u00e9\ud83d\ude00", "\ud800x", true, false, null]"#,
        "{\"café\": [\"日本\", {}, [], \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]}",
    ]

    static let fragments: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "0", "-", ".", "e", "+", "true", "nul", " ",
            "\n",
        ].map { Array($0.utf8) } + [
            [0x00], [0x1F], [0x80], [0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ]

    @Test("JSONValue.parse and skipValue agree on 20,000 random mutations, never crash, and round-trip")
    func parseAndSkipAgree() throws {
        var generator = SeededGenerator(seed: 2024)
        let seeds = Self.seeds.map { Array($0.utf8) }
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = seeds[Int(generator.next() % UInt64(seeds.count))]
            for _ in 0...(generator.next() % 3) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 4 {
                case 0 where position < bytes.count:
                    bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1:
                    bytes.insert(
                        contentsOf: Self.fragments[Int(generator.next() % UInt64(Self.fragments.count))], at: position)
                case 2 where position < bytes.count:
                    bytes.removeSubrange(position..<min(bytes.count, position + 1 + Int(generator.next() % 3)))
                default:
                    bytes.removeSubrange(position...)
                }
            }
            let parsed = parseError(bytes)
            let skipped = skipError(bytes)
            #expect((parsed == nil) == (skipped == nil), "\(bytes)")
            if let parsed {
                #expect(parsed.description.hasPrefix("invalid JSON at line "))
                #expect(parsed.offset >= 0 && parsed.offset <= bytes.count)
            } else {
                accepted += 1
                let value = try parse(bytes)
                let text = JSONWriter().write(value)
                #expect(JSONWriter().write(try JSONValue.parse(text)) == text)
            }
        }
        #expect(accepted > 100)
    }
}
