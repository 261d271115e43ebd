import FanoutJSON

/// What a Firestore export's records are decoded into, one record at a time (``FirestoreRecords/next(into:)``):
/// the pieces of a tree, JSON lines, or documents.
protocol RecordTarget {
    /// Decodes and adds the record at byte `offset` of file `file` (its place in the export's files). Throws
    /// ``EntityDecoder``'s error for a record it cannot read, having added nothing.
    mutating func add(record: UnsafeRawBufferPointer, file: Int, offset: Int) throws(EntityDecoder.Failure)
}

/// Records as the documents they hold, with their places.
struct DocumentList: RecordTarget {
    var documents: [FirestoreDocument] = []

    mutating func add(record: UnsafeRawBufferPointer, file: Int, offset: Int) throws(EntityDecoder.Failure) {
        var document = try EntityDecoder.document(record)
        document.file = file
        document.offset = offset
        documents.append(document)
    }
}

/// Records as `fanout documents` writes them: one JSON line a document, its types kept
/// (``DocumentJSON/appendLine(_:to:)``), written straight from the record by ``EntityJSON`` where it can.
struct DocumentLines: RecordTarget {
    var bytes: [UInt8] = []
    private var segments = SegmentList()
    private var members: [UInt8] = []
    private var arrays: [UnsafeRawBufferPointer] = []

    /// Lines for records of `bytes` bytes: about as many bytes of JSON, reserved at once rather than grown.
    init(reserving bytes: Int) { self.bytes.reserveCapacity(bytes) }

    mutating func add(record: UnsafeRawBufferPointer, file: Int, offset: Int) throws(EntityDecoder.Failure) {
        segments.removeSegments(from: 0)
        members.removeAll(keepingCapacity: true)
        do throws(ProtoReader.Malformed) {
            try EntityJSON.decode(record, typed: true, segments: &segments, members: &members, arrays: &arrays)
        } catch {
            arrays.removeAll(keepingCapacity: true)
            DocumentJSON.appendLine(try EntityDecoder.document(record), to: &bytes)
            return
        }
        bytes.append(contentsOf: #"{"path":""#.utf8)
        segments.withSegments { segment in
            for index in 0..<segments.count {
                if index > 0 { bytes.append(UInt8(ascii: "/")) }
                JSONWriter.appendEscaped(segment(index), to: &bytes)
            }
        }
        bytes.append(contentsOf: #"","fields":{"#.utf8)
        bytes.append(contentsOf: members)
        bytes.append(contentsOf: "}}\n".utf8)
    }
}
