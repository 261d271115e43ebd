#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an export, mapped from a file or read from standard input.
///
/// Files are memory-mapped read-only, so the export is never copied onto the heap and the kernel can drop
/// pages the reader has passed. The bytes stay valid for the life of this object.
public final class ExportBytes: @unchecked Sendable {
    /// Where the bytes came from, for messages: a path or `standard input`.
    public let source: String
    private let base: UnsafeMutableRawPointer?
    /// The number of bytes.
    public let count: Int
    private let mapped: Bool

    /// Maps the file at `path`, or reads standard input when `path` is `-`.
    public init(path: String) throws(InputError) {
        if path == "-" {
            source = "standard input"
            (base, count) = try Self.readAll(fd: 0, source: "standard input")
            mapped = false
            return
        }
        source = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError.unreadable(path: path, reason: Self.lastError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputError.unreadable(path: path, reason: Self.lastError()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError.unreadable(path: path, reason: "it is a directory") }
        if (info.st_mode & S_IFMT) != S_IFREG {
            (base, count) = try Self.readAll(fd: fd, source: path)
            mapped = false
            return
        }
        count = Int(info.st_size)
        mapped = count > 0
        if count == 0 {
            base = nil
            return
        }
        guard let pointer = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED else {
            throw InputError.unreadable(path: path, reason: Self.lastError())
        }
        _ = madvise(pointer, count, MADV_SEQUENTIAL)
        base = pointer
    }

    /// Wraps bytes already in memory (tests, decompressed input).
    public init(bytes: [UInt8], source: String) {
        self.source = source
        count = bytes.count
        mapped = false
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
        let size = bytes.count
        bytes.withUnsafeBytes { if let from = $0.baseAddress { pointer.copyMemory(from: from, byteCount: size) } }
        base = pointer
    }

    deinit {
        if mapped, let base { munmap(base, count) } else { base?.deallocate() }
    }

    /// The bytes.
    public var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private static func readAll(fd: Int32, source: String) throws(InputError) -> (UnsafeMutableRawPointer?, Int) {
        var capacity = 1 << 20
        var pointer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        var count = 0
        while true {
            if count == capacity {
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 8)
                bigger.copyMemory(from: pointer, byteCount: count)
                pointer.deallocate()
                pointer = bigger
                capacity *= 2
            }
            let n = read(fd, pointer + count, capacity - count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                pointer.deallocate()
                throw InputError.unreadable(path: source, reason: lastError())
            }
            count += n
        }
        return (pointer, count)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
