import FanoutImport
import FanoutOutput

/// Writes documents as the Firebase Emulator Suite's export folder, which `firebase emulators:start --import DIR`
/// loads and Fanout reads: `firebase-export-metadata.json`, `firestore_export/firestore_export.overall_export_metadata`
/// and `firestore_export/all_namespaces/all_kinds/` with its `export_metadata` and one `output-0` log of records.
/// The folder is staged and moved into place whole (``StagedFolder``).
public enum EmulatorFolder {
    /// The project the records' keys name when the caller has none (the emulator's `demo-` prefix is for
    /// projects that exist nowhere).
    public static let defaultProject = "demo-fanout"

    public static func write(
        _ documents: [FirestoreDocument], project: String = defaultProject, to path: String,
        databases: [(name: String, bytes: [UInt8])] = [], firestore: Bool = true
    ) throws {
        try write(project: project, to: path, databases: databases, firestore: firestore) { add in
            documents.forEach(add)
        }
    }

    /// Writes the documents that `documents` hands to the function it is given, one at a time; with `databases`,
    /// Realtime Database files beside them (`database_export/NAME.json`, one per namespace), and with `firestore`
    /// false those alone, as the emulator writes a folder of a project without Firestore.
    public static func write(
        project: String = defaultProject, to path: String, databases: [(name: String, bytes: [UInt8])] = [],
        firestore: Bool = true, _ documents: ((FirestoreDocument) -> Void) throws -> Void
    ) throws {
        let folder = try StagedFolder(path: path)
        do {
            for database in databases { try write(database.bytes, to: "database_export/\(database.name)", in: folder) }
            let parts =
                (firestore
                    ? [
                        """
                          "firestore": {
                            "version": "1.20.2",
                            "path": "firestore_export",
                            "metadata_file": "firestore_export/firestore_export.overall_export_metadata"
                          }
                        """
                    ] : [])
                + (databases.isEmpty
                    ? [] : ["  \"database\": {\"version\": \"15.2.0\", \"path\": \"database_export\"}"])
            try folder.write(
                "{\n  \"version\": \"15.2.0\",\n" + parts.joined(separator: ",\n") + "\n}\n",
                to: "firebase-export-metadata.json")
            guard firestore else {
                try folder.commit()
                return
            }
            var log = LevelDBLogWriter()
            var count = 0
            try documents { document in
                log.append(EntityEncoder.record(document, app: "dev~\(project)"))
                count += 1
            }
            let kinds = "firestore_export/all_namespaces/all_kinds"
            try write(log.bytes, to: "\(kinds)/output-0", in: folder)
            // The data files' list: the export's name and times, then the namespace and kind (empty: all) and the file.
            var list = ProtoWriter()
            list.message(1) { export in
                export.string(1, "firestore_export")
                export.varint(2, 0)
                export.varint(3, 0)
            }
            list.message(2) { file in
                file.string(1, "")
                file.string(2, "output-0")
            }
            try write(list.bytes, to: "\(kinds)/all_namespaces_all_kinds.export_metadata", in: folder)
            // The overall metadata: a log of the format's version ("3") and where the list is, with the number of
            // documents and the bytes of their records.
            var overall = ProtoWriter()
            overall.message(1) { entry in
                entry.message(1) { kind in
                    kind.varint(1, 2)
                    kind.varint(3, 3)
                }
                entry.string(2, "all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata")
            }
            overall.varint(3, UInt64(count))
            overall.varint(4, UInt64(log.bytes.count))
            var metadata = LevelDBLogWriter()
            metadata.append(Array("3".utf8))
            metadata.append(overall.bytes)
            try write(metadata.bytes, to: "firestore_export/firestore_export.overall_export_metadata", in: folder)
            try folder.commit()
        } catch {
            folder.abandon()
            throw error
        }
    }

    private static func write(_ bytes: [UInt8], to file: String, in folder: StagedFolder) throws(OutputError) {
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(OutputError) in try folder.write(raw, to: file) }
        }
        try written.get()
    }
}
