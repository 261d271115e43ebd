import SystemZlib
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decompresses one file of a zip archive held in memory, with zlib, within the bounds the archive's central
/// directory gives it.
///
/// ZIPFoundation lists the archive (central directory, ZIP64, name encodings), but its extraction feeds zlib
/// from the entry's start to the end of the file until the deflate stream ends, and waits forever when it does
/// not: a damaged archive of one kilobyte hung `fanout check` (found by `make fuzz`). Here zlib gets exactly the
/// entry's compressed bytes, the output may not exceed its stated size, and the size and CRC-32 must match,
/// so a damaged entry is one clear error, at once.
enum ZipEntryReader {
    /// Why an entry could not be read.
    enum Failure: Error, Equatable {
        /// No local header with the entry's name whose data fits in the archive.
        case missingData
        /// A compression method other than stored (0) or deflate (8).
        case unsupportedMethod(UInt16)
        /// The data does not decompress to the stated size and CRC-32.
        case corrupt
        /// The stated size is past what the compressed size may inflate to (``Deflate/limit(compressed:source:)``),
        /// or the allowance set in the environment is not a size: the reason.
        case refused(String)

        var message: String {
            switch self {
            case .missingData: "its data is missing or cut off"
            case .unsupportedMethod(let method):
                "it uses compression method \(method); Fanout reads stored and deflated files"
            case .corrupt: "its compressed data is damaged (size or CRC-32 do not match)"
            case .refused(let reason): reason
            }
        }
    }

    private static let localHeaderSize = 30

    /// The contents of `entry` of the zip archive whose bytes are `archive`.
    ///
    /// The entry's local header is found by its name (the central directory's offset is not public in
    /// ZIPFoundation); any header that is not the entry's fails the size and CRC-32 check, so a wrong match
    /// cannot give wrong contents. At most ``candidateLimit`` headers are tried, so that an archive full of
    /// planted look-alike headers costs no more than a few decompressions.
    static func contents(of entry: Entry, in archive: UnsafeRawBufferPointer) throws(Failure) -> [UInt8] {
        let name = NameMatch(entry.path)
        let compressed = Int(clamping: entry.compressedSize), stated = Int(clamping: entry.uncompressedSize)
        var failure = Failure.missingData
        var offset = 0, tried = 0
        while tried < candidateLimit, let header = nextHeader(matching: name, in: archive, from: offset) {
            offset = header + 1
            let nameLength = Int(read16(archive, header + 26)), extraLength = Int(read16(archive, header + 28))
            let start = header + localHeaderSize + nameLength + extraLength
            guard compressed <= archive.count - start else { continue }
            tried += 1
            let data = UnsafeRawBufferPointer(rebasing: archive[start..<(start + compressed)])
            do throws(Failure) {
                let bytes = try decompress(data, method: read16(archive, header + 8), size: stated)
                guard UInt32(bytes.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, $0.count) }) == entry.checksum
                else {
                    throw Failure.corrupt
                }
                return bytes
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// Headers tried per entry: a real archive has one with the name, or a few when stored files happen to
    /// contain the same bytes.
    static let candidateLimit = 8

    /// Which local header names can be the entry's: its path as UTF-8 bytes, or, for archives that wrote
    /// names in code page 437 (ZIPFoundation decodes those), a name of the same length ending in the same
    /// ASCII file name (`…/Post.json`): the file names Fanout reads are ASCII, and two files of one name are
    /// refused before this.
    struct NameMatch {
        let utf8: [UInt8]
        let legacyLength: Int
        let fileName: [UInt8]

        init(_ path: String) {
            utf8 = Array(path.utf8)
            legacyLength = path.unicodeScalars.count
            let last = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
            fileName = last.utf8.allSatisfy { $0 < 0x80 } ? Array(last.utf8) : utf8
        }

        func matches(_ name: UnsafeRawBufferPointer) -> Bool {
            if name.elementsEqual(utf8) { return true }
            guard name.count == legacyLength, name.count >= fileName.count else { return false }
            let tail = name.count - fileName.count
            guard name[tail...].elementsEqual(fileName) else { return false }
            return tail == 0 || name[tail - 1] == UInt8(ascii: "/")
        }
    }

    /// The offset of the next local header at or after `offset` whose name `name` matches.
    ///
    /// Candidates are found with `memchr` on the signature's first byte, which skips through compressed data
    /// many times faster than a byte loop: an archive of hundreds of megabytes is searched once per class file.
    private static func nextHeader(matching name: NameMatch, in archive: UnsafeRawBufferPointer, from offset: Int)
        -> Int?
    {
        guard let base = archive.baseAddress else { return nil }
        let last = archive.count - localHeaderSize
        var i = offset
        while i <= last {
            guard let hit = memchr(base + i, 0x50, last - i + 1) else { return nil }
            i = UnsafeRawPointer(hit) - base
            if archive[i + 1] == 0x4B, archive[i + 2] == 0x03, archive[i + 3] == 0x04 {
                let nameStart = i + localHeaderSize, nameLength = Int(read16(archive, i + 26))
                if nameLength <= archive.count - nameStart,
                    name.matches(UnsafeRawBufferPointer(rebasing: archive[nameStart..<(nameStart + nameLength)]))
                {
                    return i
                }
            }
            i += 1
        }
        return nil
    }

    /// `data` decompressed by `method`, which must give exactly `size` bytes.
    private static func decompress(_ data: UnsafeRawBufferPointer, method: UInt16, size: Int) throws(Failure) -> [UInt8]
    {
        switch method {
        case 0:
            guard data.count == size else { throw .corrupt }
            return Array(data)
        case 8:
            // The stated size is checked before anything is inflated, and inflating stops one byte past it.
            let limit: Int
            do { limit = try Deflate.limit(compressed: data.count, source: "") } catch {
                throw .refused(error.description)
            }
            guard size <= limit else {
                throw .refused(Deflate.refusalReason(what: "it", compressed: data.count, limit: limit))
            }
            guard size <= max(data.count, 1) * Deflate.largestRatio else { throw .corrupt }
            return try inflate(data, size: size)
        default:
            throw .unsupportedMethod(method)
        }
    }

    /// Raw deflate `data` inflated into exactly `size` bytes: the stream must end with the data, not before or
    /// after, and not produce more.
    ///
    /// The output is reserved at once, one byte more than stated (so that a stream producing more is caught), and
    /// filled in place: no growth, no copy, and pages zlib never writes cost nothing.
    private static func inflate(_ data: UnsafeRawBufferPointer, size: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // -15: raw deflate, as zip stores it, with a 32 KiB window.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt
        }
        defer { inflateEnd(&stream) }
        var consumed = 0, produced = 0
        var result = Z_OK
        let input = data.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
        let output = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            while result == Z_OK, produced <= size {
                // zlib counts in 32-bit units: feed and drain at most 1 GiB per call.
                let feed = min(data.count - consumed, 1 << 30), room = min(size + 1 - produced, 1 << 30)
                stream.next_in = input.map { $0 + consumed }
                stream.avail_in = UInt32(feed)
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = UInt32(room)
                result = SystemZlib.inflate(&stream, Z_NO_FLUSH)
                let read = feed - Int(stream.avail_in), wrote = room - Int(stream.avail_out)
                consumed += read
                produced += wrote
                // No progress: the input is used up before the stream ends. (With all input read, zlib may still
                // hold output for more room; that is progress.)
                if result == Z_BUF_ERROR || (result == Z_OK && read == 0 && wrote == 0) { break }
            }
            initialized = min(produced, size)
        }
        guard result == Z_STREAM_END, consumed == data.count, produced == size else { throw .corrupt }
        return output
    }

    private static func read16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }
}
