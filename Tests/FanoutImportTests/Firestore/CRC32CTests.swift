import FanoutTestSupport
import Testing

@testable import FanoutImport

/// The CRC-32C of LevelDB's records: the instruction and the table give the standard's check value and agree on
/// every length and alignment.
@Suite struct CRC32CTests {
    @Test func theCheckValueAndTheTableAgree() {
        // The check value of CRC-32C (RFC 3720, B.4): "123456789" gives 0xE3069283.
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBytes { CRC32C.checksum($0) } == 0xE306_9283)
        #expect(check.withUnsafeBytes { CRC32C.table($0) } == 0xE306_9283)
        var random = SeededGenerator(seed: 32)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { raw in
            for _ in 0..<500 {
                let start = random.next(64)
                let end = start + random.next(raw.count - start)
                let slice = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                let seed = UInt32(truncatingIfNeeded: random.next())
                #expect(CRC32C.checksum(slice, continuing: seed) == CRC32C.table(slice, continuing: seed))
            }
        }
        print("CRC32CTests: the instruction is \(CRC32C.usesHardware ? "" : "not ")used here")
    }
}
