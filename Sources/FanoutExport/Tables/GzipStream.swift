import FanoutOutput
import SystemZlib

/// A gzip stream written with zlib's deflate as its bytes come (`fanout tables --gzip`): input is compressed
/// in pieces into a fixed buffer and handed to the file, so memory does not grow with the output.
final class GzipStream {
    private var stream = z_stream()
    private let output: UnsafeMutablePointer<UInt8>
    private static let outputSize = 1 << 18
    private let file: StagedFolder.StreamedFile
    private var open = true

    /// zlib's fastest level: output speed matters more here than the last percent of size (docs/tables.md gives
    /// both).
    static let level: Int32 = 1

    init(file: StagedFolder.StreamedFile) throws(OutputError) {
        self.file = file
        output = .allocate(capacity: Self.outputSize)
        // 15 + 16: a 32 KiB window, and a gzip header and trailer rather than zlib's.
        guard
            deflateInit2_(
                &stream, Self.level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            output.deallocate()
            open = false
            throw OutputError(path: file.relativePath, message: "cannot start zlib")
        }
    }

    deinit {
        if open { deflateEnd(&stream) }
        output.deallocate()
    }

    /// Compresses `bytes` into the file.
    func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(bytes.count)
        while stream.avail_in > 0 { try deflateStep(Z_NO_FLUSH) }
    }

    /// Ends the stream (the gzip trailer) and closes the file.
    func finish() throws(OutputError) {
        stream.next_in = nil
        stream.avail_in = 0
        while try deflateStep(Z_FINISH) != Z_STREAM_END {}
        deflateEnd(&stream)
        open = false
        try file.close()
    }

    @discardableResult
    private func deflateStep(_ flush: Int32) throws(OutputError) -> Int32 {
        stream.next_out = output
        stream.avail_out = UInt32(Self.outputSize)
        let status = deflate(&stream, flush)
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw OutputError(path: file.relativePath, message: "cannot compress: zlib error \(status)")
        }
        let produced = Self.outputSize - Int(stream.avail_out)
        if produced > 0 { try file.append(UnsafeRawBufferPointer(start: output, count: produced)) }
        return status
    }
}
