import SystemZlib

/// Decompresses gzip data with zlib, for Firebase's automated backups (`.json.gz`).
///
/// The reader needs the export as one contiguous buffer, so the decompressed bytes are written into memory as
/// zlib streams them out of the (memory-mapped) compressed file; the compressed bytes are never copied.
enum Gzip {
    /// Whether `bytes` start with the gzip magic number (1F 8B), whatever the file is called.
    static func isCompressed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Decompresses every gzip member in `input`. The caller owns the returned memory (``GrowingBuffer/release(_:)``).
    static func inflate(_ input: UnsafeRawBufferPointer, source: String) throws(InputError) -> (
        UnsafeMutableRawPointer, Int
    ) {
        // The trailer's ISIZE is the size of the last member modulo 2^32: a good first guess for one member.
        // It is only believed up to deflate's largest ratio (``Deflate/largestRatio``) and the inflation limit, so
        // that a few damaged or hostile bytes cannot make Fanout reserve gigabytes before zlib has produced anything.
        let limit = try Deflate.limit(compressed: input.count, source: source)
        var capacity = max(input.count * 4, 1 << 16)
        if input.count >= 18 {
            let isize = Int(input.loadUnaligned(fromByteOffset: input.count - 4, as: UInt32.self).littleEndian)
            if isize > 0 { capacity = min(isize + 1, max(capacity, input.count * Deflate.largestRatio)) }
        }
        var output = try GrowingBuffer(capacity: min(capacity, limit + 1), source: source)
        try inflate(input, source: source, into: &output)
        return output.take()
    }

    /// Decompresses every gzip member in `input` into `output`, as zlib produces it.
    ///
    /// The output may not pass ``Deflate/limit(compressed:source:)``: zlib is never given room for more than one
    /// byte past it, so a bomb is refused having cost the limit, not what it would inflate to. Output no export can
    /// start with (``StreamStart``) is refused at its first bytes.
    static func inflate<Output: ByteCollector & ~Copyable>(
        _ input: UnsafeRawBufferPointer, source: String, into output: inout Output
    ) throws(InputError) {
        let limit = try Deflate.limit(compressed: input.count, source: source)
        var start = StreamStart(source: source)
        var stream = z_stream()
        // 15 + 32: a 32 KiB window, and detect the gzip header (rather than raw deflate or zlib).
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InputError.unreadable(path: source, reason: "cannot start zlib")
        }
        defer { inflateEnd(&stream) }
        var consumed = 0
        let base = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
        while true {
            try output.reserveSpace()
            // zlib counts in 32-bit units: feed and drain at most 1 GiB per call.
            let inChunk = min(input.count - consumed, 1 << 30)
            let outChunk = min(output.free.count, 1 << 30, limit + 1 - output.count)
            let into = output.free.start
            stream.next_in = base.map { $0 + consumed }
            stream.avail_in = UInt32(inChunk)
            stream.next_out = into.assumingMemoryBound(to: UInt8.self)
            stream.avail_out = UInt32(outChunk)
            let status = SystemZlib.inflate(&stream, Z_NO_FLUSH)
            consumed += inChunk - Int(stream.avail_in)
            let produced = outChunk - Int(stream.avail_out)
            output.count += produced
            if !start.decided { try start.check(UnsafeRawBufferPointer(start: into, count: produced)) }
            if output.count > limit {
                throw Deflate.refusal(source, what: "its gzip data", compressed: input.count, limit: limit)
            }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                // `gzip a b > c` and parallel compressors write several members; read them all.
                if consumed == input.count { return }
                guard input[consumed] == 0x1F, consumed + 1 < input.count, input[consumed + 1] == 0x8B else {
                    throw InputError.unreadable(
                        path: source, reason: "unexpected data after the gzip stream at byte \(consumed)")
                }
                inflateReset(&stream)
            case Z_BUF_ERROR where consumed == input.count:
                throw InputError.unreadable(
                    path: source, reason: "truncated gzip data: the file ends inside the compressed stream")
            case Z_BUF_ERROR:
                continue
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw InputError.unreadable(path: source, reason: "corrupt gzip data (\(detail)) near byte \(consumed)")
            }
        }
    }
}
