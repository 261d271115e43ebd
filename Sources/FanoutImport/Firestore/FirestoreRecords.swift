#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The documents of a Firestore export's `output-N` files, decoded one record at a time in the order of the files
/// and their records, so that a reader need not hold them all (``FirestoreExport/read(path:part:)`` collects them;
/// `check` walks them a chunk at a time).
///
/// With a part (index from 0 of count), the files are one run of bytes cut into `count` equal ranges, and a record
/// belongs to the range its first header is in (see ``FirestoreExport/read(path:part:)``). Pages of a mapped file
/// that were decoded are given back as the reader moves on, since every document copies what it holds.
struct FirestoreRecords {
    /// A decoded record: its document, with ``FirestoreDocument/file`` and ``FirestoreDocument/offset`` set.
    typealias Record = FirestoreDocument

    let files: [String]
    private let sizes: [Int]
    private let range: Range<Int>
    /// The file being read (its index in `files`), its bytes, and where it starts in the run of all files' bytes.
    private var index = -1
    private var bytes: ExportBytes?
    private var fileStart = 0
    /// The bytes of all the files, and how far the reader is in them (for progress).
    let total: Int
    var consumed: Int { bytes == nil ? max(fileStart, start) : fileStart + log.offset }
    /// The bytes of the part read.
    var partBytes: Int { range.count }
    /// Where the part read starts in the files' bytes.
    var start: Int { range.lowerBound }
    private var log = LevelDBLog(UnsafeRawBufferPointer(start: nil, count: 0))
    private var scratch: [UInt8] = []
    private var releasedUpTo = 0
    /// Records decoded so far.
    private var decodedCount = 0
    /// The project the first record's key names, once that record is read (see ``FirestoreExport/project``).
    private(set) var project: String?

    init(files: [String], part: (index: Int, count: Int)?) {
        self.init(files: files) { total in
            part.map { part in
                let bound = { (k: Int) in Int((Double(total) * Double(k) / Double(part.count)).rounded(.down)) }
                return bound(part.index)..<(part.index + 1 == part.count ? total : bound(part.index + 1))
            } ?? 0..<total
        }
    }

    /// The records of the files' bytes before (`first`) or from the fraction `cut` of them.
    init(files: [String], cutAt cut: Double, first: Bool) {
        self.init(files: files) { total in
            let bound = Int((Double(total) * cut).rounded(.down))
            return first ? 0..<bound : bound..<total
        }
    }

    private init(files: [String], range: (_ total: Int) -> Range<Int>) {
        self.files = files
        sizes = files.map(Self.size)
        let total = sizes.reduce(0, +)
        self.total = total
        self.range = range(total)
    }

    /// The next document; nil after the last. Throws ``InputError`` naming the file, the byte offset and the
    /// document for a damaged record.
    mutating func next() throws(InputError) -> Record? {
        guard let record = try advance() else { return nil }
        var document = try decode(record) { data throws(EntityDecoder.Failure) in try EntityDecoder.document(data) }
        document.file = index
        document.offset = record.start
        return document
    }

    /// Gives the next record to `target` (which decodes it, see ``RecordTarget``); returns its file's index and
    /// its record's offset there, nil after the last. Throws as ``next()`` does.
    mutating func next<Target: RecordTarget>(into target: inout Target) throws(InputError) -> (file: Int, offset: Int)?
    {
        guard let record = try advance() else { return nil }
        let file = index
        try decode(record) { data throws(EntityDecoder.Failure) in
            try target.add(record: data, file: file, offset: record.start)
        }
        return (file, record.start)
    }

    /// Moves to the next record of the part; returns where its first header is, and its data as it lies in the
    /// file, or nil when it is put together in `scratch`; nil after the last.
    private mutating func advance() throws(InputError) -> (start: Int, data: UnsafeRawBufferPointer?)? {
        while true {
            if bytes == nil {
                guard try openNextFile() else { return nil }
            }
            guard log.offset + fileStart < range.upperBound else {
                close()
                continue
            }
            let record: (start: Int, data: UnsafeRawBufferPointer?)?
            do {
                record = try log.next(scratch: &scratch)
            } catch {
                throw InputError.layout(source: "\(files[index]): byte \(error.offset)", message: error.message)
            }
            guard let record else {
                close()
                continue
            }
            guard record.start + fileStart >= range.lowerBound else { continue }
            return record
        }
    }

    /// Decodes `record` (from ``advance()``) with `body`, and gives back the pages read before it.
    private mutating func decode<Decoded>(
        _ record: (start: Int, data: UnsafeRawBufferPointer?),
        _ body: (UnsafeRawBufferPointer) throws(EntityDecoder.Failure) -> Decoded
    ) throws(InputError) -> Decoded {
        let start = record.start
        do throws(EntityDecoder.Failure) {
            let decoded: Decoded
            if let data = record.data {
                decoded = try body(data)
            } else {
                let result = scratch.withUnsafeBytes { data in
                    Result { () throws(EntityDecoder.Failure) in try body(data) }
                }
                decoded = try result.get()
            }
            if decodedCount == 0, let data = record.data, let app = EntityDecoder.app(data) {
                // App IDs carry their partition before a tilde (`dev~`, `s~`).
                project = app.split(separator: "~", maxSplits: 1).last.map(String.init)
            }
            decodedCount += 1
            if let bytes, bytes.isMapped, log.offset - releasedUpTo >= Self.releaseInterval {
                releasedUpTo = MappedPages.release(bytes.buffer, from: releasedUpTo, before: start)
            }
            return decoded
        } catch {
            let data = start + LevelDBLog.headerSize + error.offset
            throw InputError.layout(
                source: "\(files[index]): byte \(data)",
                message: error.message + (error.document.map { " (in document \($0))" } ?? "")
                    + "; the record starts at byte \(start)")
        }
    }

    /// The path of the record whose first header is at `offset` in file `file` (read again: a document seen
    /// before, whose path hash another document shares).
    static func segments(files: [String], file: Int, offset: Int) throws(InputError) -> [String] {
        let bytes = try ExportBytes(path: files[file])
        var log = LevelDBLog(bytes.buffer, from: offset)
        var scratch: [UInt8] = []
        do {
            guard let record = try log.next(scratch: &scratch) else { return [] }
            if let data = record.data { return try EntityDecoder.document(data).segments }
            let decoded = scratch.withUnsafeBytes { data in
                Result { () throws(EntityDecoder.Failure) in try EntityDecoder.document(data) }
            }
            return try decoded.get().segments
        } catch {
            throw InputError.layout(source: "\(files[file]): byte \(offset)", message: "a record read twice differs")
        }
    }

    /// Opens the next file that overlaps the range; false when there is none.
    private mutating func openNextFile() throws(InputError) -> Bool {
        while index + 1 < files.count {
            if index >= 0 { fileStart += sizes[index] }
            index += 1
            let fileRange = fileStart..<(fileStart + sizes[index])
            guard range.overlaps(fileRange) || (sizes[index] == 0 && range.contains(fileStart)) else { continue }
            let opened = try ExportBytes(path: files[index])
            let from = max(0, range.lowerBound - fileStart)
            log = LevelDBLog(opened.buffer, from: from - from % LevelDBLog.blockSize)
            if from > 0 {
                do {
                    try log.skipToRecordStart()
                } catch {
                    throw InputError.layout(source: "\(files[index]): byte \(error.offset)", message: error.message)
                }
            }
            bytes = opened
            releasedUpTo = 0
            return true
        }
        return false
    }

    private mutating func close() {
        bytes = nil
        log = LevelDBLog(UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Bytes decoded between two releases of pages.
    private static let releaseInterval = 8 << 20

    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
