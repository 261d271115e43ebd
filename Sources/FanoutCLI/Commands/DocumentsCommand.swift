import ArgumentParser
import FanoutImport
import FanoutOutput
import Foundation

/// `fanout documents`: a Cloud Firestore export's documents as JSON (docs/firestore.md).
struct DocumentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents",
        abstract: "Write a Cloud Firestore export's documents as JSON: one line a document, or one tree.",
        discussion: """
            EXPORT is an emulator folder (firebase emulators:export), a managed export's folder (gcloud firestore \
            export, copied down) or one output-N file. Each line is {"path": "users/abc", "fields": {…}} with the \
            types kept: {"__timestamp__": "…"} (RFC 3339), {"__ref__": "users/abc"}, {"__bytes__": "<base64>"}, \
            {"__geo__": [lat, lng]}, integers exact and doubles with a fraction. --tree writes one JSON tree instead \
            (collections, documents by ID, their fields and subcollections, values as plain JSON): what schema \
            files' paths describe.
            """
    )

    @Argument(help: "The Firestore export: a folder or an output-N file.")
    var export: String

    @ArgumentParser.Flag(help: "Write one JSON tree (collections → documents → fields and subcollections).")
    var tree = false

    @Option(name: .shortAndLong, help: "Write to this file (replaced when complete) instead of standard output.")
    var output: String?

    func run() throws {
        var pieces = try PhaseClock.measure("read") {
            try tree ? [FirestoreExport.tree(path: export)] : FirestoreExport.lines(path: export)
        }
        if tree { pieces[0].append(UInt8(ascii: "\n")) }
        try PhaseClock.measure("write") {
            if let output {
                let file = try AtomicFile(path: output)
                for piece in pieces { try piece.withUnsafeBytes { try file.append($0) } }
                try file.commit()
            } else {
                for piece in pieces where !piece.isEmpty {
                    piece.withUnsafeBytes { raw in
                        // Written from the bytes in place: a copy into Data would double the memory of a large export.
                        let data = Data(
                            bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count,
                            deallocator: .none)
                        FileHandle.standardOutput.write(data)
                    }
                }
            }
        }
    }
}
