import CChecksum

/// CRC-32C (Castagnoli), the checksum of LevelDB's log records, as LevelDB masks it: with the SSE4.2 instruction
/// where the processor has it, as LevelDB's own reader does, else by table.
package enum CRC32C {
    /// Whether the instruction is used.
    static let usesHardware = fanout_crc32c_hardware() != 0

    /// The table of the reflected polynomial 0x82F63B78, eight bytes at a time (slicing-by-8).
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for n in 0..<256 {
            var crc = UInt32(n)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[0][n] = crc
        }
        for n in 0..<256 {
            for k in 1..<8 { tables[k][n] = (tables[k - 1][n] >> 8) ^ tables[0][Int(tables[k - 1][n] & 0xFF)] }
        }
        return tables
    }()
    private static let flat: [UInt32] = tables.flatMap { $0 }

    /// The CRC-32C of `bytes`, continuing from `crc` (0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        if usesHardware {
            guard let base = bytes.baseAddress else { return crc }
            return ~fanout_crc32c_update(~crc, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        return table(bytes, continuing: crc)
    }

    /// ``checksum(_:continuing:)`` by the slicing-by-8 table.
    static func table(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var crc = ~crc
        var i = 0
        let count = bytes.count
        flat.withUnsafeBufferPointer { t in
            while i + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        return ~crc
    }

    /// LevelDB stores a masked CRC, so that the CRC of data holding CRCs is not trivially related to them.
    package static func masked(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }
}
