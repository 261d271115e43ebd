import FanoutJSON
import Foundation

/// A Cloud Firestore export: the Emulator Suite's folder (`firebase emulators:export DIR`), a managed export's
/// folder (`gcloud firestore export`, copied down), or one `output-N` file, read into its documents.
///
/// What a path holds decides: a folder with `firebase-export-metadata.json` (its `firestore.path` names the
/// export's folder), a folder with a `*.overall_export_metadata` file or an `all_namespaces` folder, or a file that
/// starts with a LevelDB log record. The data files are every `output-N` under `all_namespaces/` (`all_kinds`, or a
/// `kind_COLLECTION` folder per collection), in order of folder and N.
public struct FirestoreExport: Sendable {
    /// The path given, for messages.
    public let source: String
    /// The `output-N` files, in the order read.
    public let files: [String]
    /// Every document, in the order of the files and their records.
    public var documents: [FirestoreDocument]
    /// The project its first record's key names (`my-project` of `dev~my-project`), when it names one.
    public var project: String?

    /// Whether `path` holds a Firestore export (cheap: names, metadata, and a file's first record header).
    public static func recognizes(_ path: String) -> Bool {
        (try? locate(path)) != nil
    }

    /// Reads the export at `path`. Throws ``InputError`` naming the file, the byte offset and the document for a
    /// damaged record, and for a folder that holds no export.
    public static func read(path: String) throws(InputError) -> FirestoreExport {
        try read(path: path, part: nil)
    }

    /// Reads the records of part `part` (index from 0 of count) of the export at `path`: the `output-N` files are
    /// one run of bytes cut into `count` equal ranges, and a record belongs to the range its first header is in.
    /// A part starts reading at the 32 KiB block where its range starts and skips fragments of a record begun
    /// before it, as LevelDB's reader resynchronizes, so no part reads a byte of another part's blocks but to
    /// finish its own last record.
    public static func read(path: String, part: (index: Int, count: Int)?) throws(InputError) -> FirestoreExport {
        let (files, read) = try decode(path: path, part: part, into: { _ in DocumentList() })
        return FirestoreExport(
            source: path, files: files, documents: read.flatMap { $0.target.documents },
            project: read.first?.project)
    }

    /// The documents of the export at `path` as `fanout documents` writes them, one JSON line each
    /// (``DocumentJSON/appendLine(_:to:)``), in the order of the files and their records: in pieces (one per half
    /// of a large export) to be written one after the other. Throws as ``read(path:)`` does.
    public static func lines(path: String) throws(InputError) -> [[UInt8]] {
        try decode(path: path, part: nil, into: DocumentLines.init(reserving:)).1.map(\.target.bytes)
    }

    /// The documents of the export at `path` as one JSON tree (``DocumentJSON/tree(_:)``). Throws as
    /// ``read(path:)`` does, and naming the document stored twice.
    public static func tree(path: String) throws(InputError) -> [UInt8] {
        let (_, read) = try decode(path: path, part: nil, into: { _ in DocumentFragments() })
        var fragments = read[0].target
        for half in read.dropFirst() { fragments.append(half.target) }
        do {
            return try fragments.tree()
        } catch {
            throw InputError.layout(source: path, message: "the document \(error.path) is stored twice")
        }
    }

    /// The records of part `part` of the export at `path` decoded into targets made by `make` (given the bytes
    /// of the records each will hold): one, or for a
    /// large export read whole, one per half, each decoded on a thread of its own (the first half's error is the
    /// first in the files when both have one); with the project each one's first record names.
    private static func decode<Target: RecordTarget>(
        path: String, part: (index: Int, count: Int)?, into make: @escaping @Sendable (_ bytes: Int) -> Target
    ) throws(InputError) -> (files: [String], [(target: Target, project: String?)]) {
        guard let files = try locate(path) else {
            throw InputError.layout(
                source: path,
                message:
                    "not a Firestore export: no firebase-export-metadata.json, *.overall_export_metadata or output-N file"
            )
        }
        let whole = FirestoreRecords(files: files, part: part)
        guard part == nil, whole.total >= SplitRead.minimumBytes else {
            return (files, [try decode(whole, into: make(whole.partBytes))])
        }
        let halves = HalfReads<Target>(files: files, make: make)
        DispatchQueue.concurrentPerform(iterations: 2) { halves.read($0) }
        var read: [(target: Target, project: String?)] = []
        for result in [halves.first, halves.second] {
            guard let result else { continue }
            read.append(try result.get())
        }
        return (files, read)
    }

    /// Every record of `records` decoded into `target`.
    fileprivate static func decode<Target: RecordTarget>(_ records: FirestoreRecords, into target: Target)
        throws(InputError) -> (target: Target, project: String?)
    {
        var records = records
        var target = target
        while try records.next(into: &target) != nil {}
        return (target, records.project)
    }

    /// The `output-N` files of the export at `path`; nil when it holds none of a Firestore export's marks.
    static func locate(_ path: String) throws(InputError) -> [String]? {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard path != "-", manager.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return startsWithLogRecord(path) ? [path] : nil }
        let folder = URL(fileURLWithPath: path)
        let emulator = folder.appendingPathComponent("firebase-export-metadata.json")
        if manager.fileExists(atPath: emulator.path) {
            guard let exportFolder = try emulatorFirestorePath(emulator) else { return nil }
            return try dataFiles(in: folder.appendingPathComponent(exportFolder), source: path, required: true)
        }
        return try dataFiles(in: folder, source: path, required: false)
    }

    /// The Realtime Database files of an emulator folder (`database.path` in its metadata, a JSON file per
    /// namespace), sorted; empty for any other path.
    public static func databaseFiles(_ path: String) throws(InputError) -> [String] {
        let metadata = URL(fileURLWithPath: path).appendingPathComponent("firebase-export-metadata.json")
        guard path != "-", FileManager.default.fileExists(atPath: metadata.path),
            let folder = try emulatorPath(metadata, part: "database")
        else { return [] }
        let databases = URL(fileURLWithPath: path).appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: databases.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { databases.appendingPathComponent($0).path }
    }

    /// The Realtime Database namespaces of an emulator folder (its files' names without `.json`), when it holds more
    /// than one: what the reports' headers name, as the findings' locations name each file.
    public static func databaseNamespaces(_ path: String) throws(InputError) -> [String] {
        let files = try databaseFiles(path)
        guard files.count > 1 else { return [] }
        return files.map { String(($0 as NSString).lastPathComponent.dropLast(".json".count)) }
    }

    /// The folder `firestore.path` names in the emulator's metadata; nil when it has no Firestore part.
    private static func emulatorFirestorePath(_ metadata: URL) throws(InputError) -> String? {
        try emulatorPath(metadata, part: "firestore")
    }

    /// The folder the emulator's metadata names for `part` (`firestore`, `database`); nil when it has none.
    private static func emulatorPath(_ metadata: URL, part: String) throws(InputError) -> String? {
        let bytes = try ExportBytes(path: metadata.path)
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes.buffer)
        } catch {
            throw InputError.syntax(source: metadata.path, error)
        }
        guard case .object(let members) = value,
            let entry = members.first(where: { $0.key == part })?.value
        else { return nil }
        guard case .object(let fields) = entry, let path = fields.first(where: { $0.key == "path" })?.value,
            case .string(let folder) = path
        else {
            throw InputError.layout(source: metadata.path, message: "its \"\(part)\" entry has no \"path\" string")
        }
        return folder
    }

    /// The `output-N` files under `folder/all_namespaces`, for a folder that is an export (it has an
    /// `*.overall_export_metadata` file or an `all_namespaces` folder); nil for another folder unless `required`.
    private static func dataFiles(in folder: URL, source: String, required: Bool) throws(InputError) -> [String]? {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        let namespaces = folder.appendingPathComponent("all_namespaces")
        let hasMetadata = names.contains { $0.hasSuffix(".overall_export_metadata") }
        guard hasMetadata || names.contains("all_namespaces") else {
            if !required { return nil }
            throw InputError.layout(
                source: source,
                message: "the emulator's metadata names the Firestore export \(folder.path), which has no "
                    + "*.overall_export_metadata file and no all_namespaces folder")
        }
        var files: [String] = []
        let kinds = ((try? manager.contentsOfDirectory(atPath: namespaces.path)) ?? []).sorted()
        for kind in kinds {
            let kindFolder = namespaces.appendingPathComponent(kind)
            let outputs = ((try? manager.contentsOfDirectory(atPath: kindFolder.path)) ?? [])
                .compactMap { name -> (Int, String)? in
                    guard name.hasPrefix("output-"), let n = Int(name.dropFirst("output-".count)) else { return nil }
                    return (n, name)
                }
                .sorted { $0.0 < $1.0 }
            files += outputs.map { kindFolder.appendingPathComponent($0.1).path }
        }
        guard !files.isEmpty else {
            throw InputError.layout(
                source: source, message: "a Firestore export folder with no output-N file under \(namespaces.path)")
        }
        return files
    }

    /// Whether the file starts with a LevelDB log record whose checksum holds (or is an empty `output-N`).
    private static func startsWithLogRecord(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: LevelDBLog.headerSize + 0xFFFF)) ?? Data())
        if head.isEmpty {
            let name = (path as NSString).lastPathComponent
            return name.hasPrefix("output-") && Int(name.dropFirst("output-".count)) != nil
        }
        guard head.count >= LevelDBLog.headerSize else { return false }
        let length = Int(head[4]) | Int(head[5]) << 8
        guard (1...4).contains(head[6]), LevelDBLog.headerSize + length <= head.count else { return false }
        return head.withUnsafeBytes { raw in
            let stored = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
            let data = UnsafeRawBufferPointer(rebasing: raw[6..<(LevelDBLog.headerSize + length)])
            return CRC32C.masked(CRC32C.checksum(data)) == stored
        }
    }
}

/// The records of an export's two halves, each decoded on a thread of its own.
private final class HalfReads<Target: RecordTarget>: @unchecked Sendable {
    let files: [String]
    let make: @Sendable (_ bytes: Int) -> Target
    /// Per half, what it was decoded into and the project its first record names, or its error.
    var first: Result<(target: Target, project: String?), InputError>?
    var second: Result<(target: Target, project: String?), InputError>?

    init(files: [String], make: @escaping @Sendable (_ bytes: Int) -> Target) {
        self.files = files
        self.make = make
    }

    func read(_ half: Int) {
        let records = FirestoreRecords(files: files, part: (half, 2))
        let target = make(records.partBytes)
        let result = Result { () throws(InputError) in try FirestoreExport.decode(records, into: target) }
        if half == 0 { first = result } else { second = result }
    }
}
