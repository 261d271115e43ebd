import FanoutOutput

/// One part file of a table being written, plain or gzip.
final class TablePart {
    private let file: StagedFolder.StreamedFile
    private let gzip: GzipStream?

    init(_ file: StagedFolder.StreamedFile, gzip: Bool) throws(OutputError) {
        self.file = file
        self.gzip = gzip ? try GzipStream(file: file) : nil
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        if let gzip { try gzip.append(bytes) } else { try file.append(bytes) }
    }

    func finish() throws(OutputError) {
        if let gzip { try gzip.finish() } else { try file.close() }
    }
}

/// The rows of one table that one walker writes: a buffer of rows, the part being written and the parts done.
struct TableOutput {
    /// Rows not yet handed to the part.
    var bytes: [UInt8] = []
    /// Rows written, in all parts.
    var rows = 0
    /// Rows in the current part.
    var rowsInPart = 0
    /// The parts written, in order, as paths in the staging folder.
    var parts: [String] = []
    var part: TablePart?

    init() { bytes.reserveCapacity(TableOutput.flushBytes + (1 << 16)) }

    /// Rows are handed to the part file in pieces of about this size.
    static let flushBytes = 1 << 20
}
