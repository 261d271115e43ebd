import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes produced a piece at a time into a temporary file, which is then mapped like any export file: how
/// `fanout tables` takes gzip input and standard input without holding the export in memory (docs/tables.md). The file
/// is unlinked as soon as it is created, so nothing is left behind whatever happens; it lives in `TMPDIR` and needs the
/// uncompressed export's size on disk.
struct SpoolFile: ByteCollector, ~Copyable {
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawPointer
    private static var bufferSize: Int { 4 << 20 }
    /// Bytes produced, and bytes of them written to the file.
    var count = 0
    private var written = 0
    private let source: String

    /// A new temporary file for the bytes of `source` (a path or `standard input`, for messages).
    init(source: String) throws(InputError) {
        self.source = source
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("fanout-spool-XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw InputError.unreadable(
                path: source, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 8)
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    var free: (start: UnsafeMutableRawPointer, count: Int) {
        (buffer + (count - written), Self.bufferSize - (count - written))
    }

    mutating func reserveSpace() throws(InputError) {
        if count - written == Self.bufferSize { try flush() }
    }

    private mutating func flush() throws(InputError) {
        var offset = 0
        let pending = count - written
        while offset < pending {
            let n = write(descriptor, buffer + offset, pending - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.unreadable(
                    path: source, reason: "cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        written = count
    }

    /// Writes what is left and maps the whole file read-only; the mapping outlives the file's descriptor.
    consuming func map() throws(InputError) -> (base: UnsafeMutableRawPointer?, count: Int) {
        try flush()
        guard count > 0 else { return (nil, 0) }
        guard let pointer = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), pointer != MAP_FAILED else {
            throw InputError.unreadable(
                path: source, reason: "cannot map a temporary file: \(String(cString: strerror(errno)))")
        }
        _ = madvise(pointer, count, MADV_SEQUENTIAL)
        return (pointer, count)
    }
}
