#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of an export, mapped from a file or read from standard input, decompressed when gzip.
///
/// Files are memory-mapped read-only, so the export is never copied onto the heap and the kernel can drop
/// pages the reader has passed. Gzip input (recognized by its magic number, not by its name) is decompressed
/// into memory, since the reader needs one contiguous buffer. The bytes stay valid for the life of this object.
package final class ExportBytes: @unchecked Sendable {
    /// Where the bytes came from, for messages: a path or `standard input`.
    package let source: String
    private let base: UnsafeMutableRawPointer?
    /// The number of bytes (after decompression).
    package let count: Int
    private let mapped: Bool
    /// Whether the input was gzip-compressed.
    package let wasCompressed: Bool

    /// Maps the file at `path`, or reads standard input when `path` is `-`; gzip input is decompressed.
    ///
    /// With `spooling`, standard input, pipes and decompressed gzip go to a temporary file (``SpoolFile``) that
    /// is then mapped, so that memory stays bounded whatever the export's size (`fanout tables`).
    package init(path: String, spooling: Bool = false) throws(InputError) {
        source = path == "-" ? "standard input" : path
        let raw = try Self.readRaw(path, source: source, spooling: spooling)
        let rawBytes = UnsafeRawBufferPointer(start: raw.base, count: raw.count)
        guard Gzip.isCompressed(rawBytes) else {
            (base, count, mapped, wasCompressed) = (raw.base, raw.count, raw.mapped, false)
            return
        }
        // The compressed bytes are released as soon as they are decompressed, whether or not that succeeds.
        defer { Self.release(raw.base, raw.count, mapped: raw.mapped) }
        if spooling {
            var spool = try SpoolFile(source: source)
            try Gzip.inflate(rawBytes, source: source, into: &spool)
            let (pointer, size) = try spool.map()
            (base, count, mapped, wasCompressed) = (pointer, size, pointer != nil, true)
            return
        }
        let (pointer, size) = try Gzip.inflate(rawBytes, source: source)
        (base, count, mapped, wasCompressed) = (pointer, size, false, true)
    }

    /// Wraps bytes already in memory (tests, files extracted from a zip).
    package init(bytes: [UInt8], source: String) {
        self.source = source
        count = bytes.count
        mapped = false
        wasCompressed = false
        // malloc, as ``GrowingBuffer`` allocates, so that ``release(_:_:mapped:)`` frees every block one way.
        guard let pointer = malloc(max(count, 1)) else { fatalError("cannot allocate \(count) bytes") }
        let size = bytes.count
        bytes.withUnsafeBytes { if let from = $0.baseAddress { pointer.copyMemory(from: from, byteCount: size) } }
        base = pointer
    }

    deinit { Self.release(base, count, mapped: mapped) }

    /// The bytes.
    package var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Whether the bytes are a read-only mapping of the file (whose pages may be dropped and read again).
    var isMapped: Bool { mapped }

    /// Maps a regular file, or reads standard input (`-`), pipes and devices, as they are.
    private static func readRaw(_ path: String, source: String, spooling: Bool) throws(InputError) -> (
        base: UnsafeMutableRawPointer?, count: Int, mapped: Bool
    ) {
        if path == "-" { return try readAll(fd: 0, source: source, spooling: spooling) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError.unreadable(path: path, reason: lastError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputError.unreadable(path: path, reason: lastError()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError.unreadable(path: path, reason: "it is a directory") }
        if (info.st_mode & S_IFMT) != S_IFREG { return try readAll(fd: fd, source: path, spooling: spooling) }
        let count = Int(info.st_size)
        if count == 0 { return (nil, 0, false) }
        guard let pointer = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED else {
            throw InputError.unreadable(path: path, reason: lastError())
        }
        _ = madvise(pointer, count, MADV_SEQUENTIAL)
        return (pointer, count, true)
    }

    private static func release(_ base: UnsafeMutableRawPointer?, _ count: Int, mapped: Bool) {
        if mapped, let base { munmap(base, count) } else if let base { GrowingBuffer.release(base) }
    }

    /// Reads `fd` to its end, into memory or (`spooling`) into a mapped temporary file; input no export can start
    /// with (``StreamStart``) is refused at its first bytes, without reading on.
    private static func readAll(fd: Int32, source: String, spooling: Bool) throws(InputError) -> (
        base: UnsafeMutableRawPointer?, count: Int, mapped: Bool
    ) {
        guard spooling else {
            var buffer = try GrowingBuffer(capacity: 1 << 20, source: source)
            try readAll(fd: fd, source: source, into: &buffer)
            let (base, count) = buffer.take()
            return (base, count, false)
        }
        var spool = try SpoolFile(source: source)
        try readAll(fd: fd, source: source, into: &spool)
        let (base, count) = try spool.map()
        return (base, count, base != nil)
    }

    private static func readAll<Output: ByteCollector & ~Copyable>(fd: Int32, source: String, into buffer: inout Output)
        throws(InputError)
    {
        var start = StreamStart(source: source)
        while true {
            try buffer.reserveSpace()
            let into = buffer.free.start
            let n = read(fd, into, buffer.free.count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.unreadable(path: source, reason: lastError())
            }
            buffer.count += n
            if !start.decided { try start.check(UnsafeRawBufferPointer(start: into, count: n)) }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
