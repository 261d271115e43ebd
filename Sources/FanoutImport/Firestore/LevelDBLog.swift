/// The records of a file in LevelDB's log format, which Firestore's exports use for their `output-N` files.
///
/// The file is 32 KiB blocks; each record is one fragment (`FULL`) or several (`FIRST`, `MIDDLE`…, `LAST`) that
/// never cross a block, each behind a 7-byte header: a masked CRC-32C of its type and data, its length (little
/// endian) and its type. Fewer than 7 bytes left in a block are a zero trailer. Every damage is an error naming
/// the byte offset: a wrong checksum, a fragment past the block or the file, fragments out of order.
struct LevelDBLog {
    static let blockSize = 32 * 1024
    static let headerSize = 7

    enum Kind: UInt8 {
        case zero = 0
        case full = 1
        case first = 2
        case middle = 3
        case last = 4
    }

    /// Why the log could not be read, and where.
    struct Damage: Error, Equatable {
        var offset: Int
        var message: String
    }

    private let bytes: UnsafeRawBufferPointer
    /// Where the next fragment's header is.
    private(set) var offset: Int
    /// The data of a fragmented record being put together.
    private var pieces: [UInt8] = []

    /// Reads `bytes` from `offset`, which must be where a block or a record starts (a part of a split read starts
    /// at a block and skips to the next record's first fragment: ``skipToRecordStart()``).
    init(_ bytes: UnsafeRawBufferPointer, from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next record: where its first fragment's header starts, and its data in the file's bytes for a whole
    /// record, or nil for a fragmented one, whose data is then put together in `scratch`. Nil at the end of the file.
    mutating func next(scratch: inout [UInt8]) throws(Damage) -> (start: Int, data: UnsafeRawBufferPointer?)? {
        var start = -1
        scratch.removeAll(keepingCapacity: true)
        while true {
            let inBlock = Self.blockSize - offset % Self.blockSize
            if inBlock < Self.headerSize {
                // A block's trailer: the writer zero-fills it.
                let end = min(offset + inBlock, bytes.count)
                for i in offset..<end where bytes[i] != 0 {
                    throw Damage(offset: i, message: "a block's trailer holds a nonzero byte")
                }
                offset = end
                continue
            }
            if offset == bytes.count {
                if start >= 0 { throw Damage(offset: start, message: "the file ends inside a record") }
                return nil
            }
            guard offset + Self.headerSize <= bytes.count else {
                throw Damage(offset: offset, message: "the file ends inside a record's header")
            }
            let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
            let type = bytes[offset + 6]
            if type == 0, length == 0, stored == 0 {
                // A zero header: the rest of the block was preallocated and never written (LevelDB skips it).
                if start >= 0 {
                    throw Damage(
                        offset: offset, message: "a record breaks off: zero bytes where its next fragment belongs")
                }
                try skipZeros()
                continue
            }
            guard let kind = Kind(rawValue: type), kind != .zero else {
                throw Damage(offset: offset, message: "a record header has the unknown type \(type)")
            }
            let dataStart = offset + Self.headerSize
            guard length <= inBlock - Self.headerSize else {
                throw Damage(offset: offset, message: "a fragment of \(length) bytes runs past its 32 KiB block")
            }
            guard dataStart + length <= bytes.count else {
                throw Damage(offset: offset, message: "the file ends inside a record (\(length) bytes announced)")
            }
            let data = UnsafeRawBufferPointer(rebasing: bytes[dataStart..<(dataStart + length)])
            var typeByte = type
            let crc = withUnsafeBytes(of: &typeByte) { CRC32C.checksum($0) }
            let actual = CRC32C.masked(CRC32C.checksum(data, continuing: crc))
            guard actual == stored else {
                throw Damage(
                    offset: offset,
                    message: "a record's checksum is wrong (stored \(hex(stored)), its bytes give \(hex(actual)))")
            }
            let here = offset
            offset = dataStart + length
            switch kind {
            case .full:
                guard start < 0 else {
                    throw Damage(offset: here, message: "a whole record where a fragmented one goes on")
                }
                return (here, data)
            case .first:
                guard start < 0 else {
                    throw Damage(offset: here, message: "a record starts where a fragmented one goes on")
                }
                start = here
                scratch.append(contentsOf: data)
            case .middle, .last:
                guard start >= 0 else {
                    throw Damage(offset: here, message: "a record's later fragment without its first")
                }
                scratch.append(contentsOf: data)
                if kind == .last { return (start, nil) }
            case .zero: break
            }
        }
    }

    /// From a block's start, skips fragments that continue a record begun in an earlier block (a part of a split
    /// read), so that ``next(scratch:)`` starts at a record's first fragment, as LevelDB's reader resyncs.
    mutating func skipToRecordStart() throws(Damage) {
        while offset + Self.headerSize <= bytes.count {
            let inBlock = Self.blockSize - offset % Self.blockSize
            if inBlock < Self.headerSize {
                offset = min(offset + inBlock, bytes.count)
                continue
            }
            let type = bytes[offset + 6]
            guard type == Kind.middle.rawValue || type == Kind.last.rawValue else { return }
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
            offset += Self.headerSize + length
        }
    }

    /// Skips a run of zero bytes up to the next block (what remains of a block a writer preallocated).
    private mutating func skipZeros() throws(Damage) {
        let end = min(offset + (Self.blockSize - offset % Self.blockSize), bytes.count)
        for i in offset..<end where bytes[i] != 0 {
            throw Damage(offset: i, message: "a zero-filled stretch of a block holds a nonzero byte")
        }
        offset = end
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
