import FanoutImport

/// Writes records in LevelDB's log format (see `LevelDBLog` in FanoutImport, which reads it): 32 KiB blocks,
/// each record one fragment or several that never cross a block, a block's last bytes zero when fewer than a
/// header's 7 remain.
struct LevelDBLogWriter {
    private static let blockSize = 32 * 1024
    private static let headerSize = 7
    private(set) var bytes: [UInt8] = []

    /// Appends one record; returns the offset of its first header.
    @discardableResult
    mutating func append(_ record: [UInt8]) -> Int {
        var start: Int?
        var rest = record[...]
        var first = true
        repeat {
            var left = Self.blockSize - bytes.count % Self.blockSize
            if left < Self.headerSize {
                bytes.append(contentsOf: repeatElement(0, count: left))
                left = Self.blockSize
            }
            if start == nil { start = bytes.count }
            let length = min(rest.count, left - Self.headerSize)
            let last = length == rest.count
            let type: UInt8 = first ? (last ? 1 : 2) : (last ? 4 : 3)
            let fragment = rest.prefix(length)
            var crc = [type].withUnsafeBytes { CRC32C.checksum($0) }
            crc = CRC32C.masked(
                fragment.withContiguousStorageIfAvailable {
                    CRC32C.checksum(UnsafeRawBufferPointer($0), continuing: crc)
                }
                    ?? Array(fragment).withUnsafeBytes { CRC32C.checksum($0, continuing: crc) })
            withUnsafeBytes(of: crc.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(length & 0xFF))
            bytes.append(UInt8(length >> 8))
            bytes.append(type)
            bytes.append(contentsOf: fragment)
            rest = rest.dropFirst(length)
            first = false
        } while !rest.isEmpty
        return start!
    }
}
