import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutImport

/// `check`'s read of a Firestore export a chunk of records at a time, in halves read by two threads, against the
/// walk of the whole export's one tree: every partition of the documents into trees gives the same findings.
@Suite struct ChunkedFirestoreReadTests {
    static let schemas = repositoryRoot.appendingPathComponent("Tests/Fixtures/firestore")
    static let apps = ["sketchgram", "triply"].filter {
        FileManager.default.fileExists(atPath: EntityOracleTests.exports.appendingPathComponent($0).path)
    }

    static func findings(_ dataset: Dataset) -> [String] {
        Audit.run(CheckContext(dataset: dataset, derived: DerivedData(dataset))).findings.map {
            "\($0.rule) \($0.paths.joined(separator: ",")) \($0.message)"
        }
    }

    @Test(.enabled(if: !apps.isEmpty, "needs the real exports in ../shared/testdata/exports/firestore"))
    func everyChunkingGivesTheWholeTreesFindings() throws {
        for app in Self.apps {
            let path = EntityOracleTests.exports.appendingPathComponent("\(app)/export").path
            let schema = try SchemaFile.load(path: Self.schemas.appendingPathComponent("\(app).toml").path)
            let whole = try ExportLoader.walk(
                ExportLoader.firestoreTree(path), schema: schema, foreignKeys: [:], progress: nil, splitTarget: nil,
                sink: DatasetSink.init
            ).dataset
            let expected = Self.findings(whole)
            // Triply's export has findings (docs/firestore.md), so the comparison is of something.
            if app == "triply" { #expect(!expected.isEmpty) }
            // One document a chunk, a few, and one chunk; each in one run of records and in two halves.
            for chunkBytes in [1, 2048, 1 << 30] {
                for halvesFrom in [0, Int.max] {
                    let dataset = try ExportLoader.walkFirestore(
                        path: path, schema: schema, foreignKeys: [:], warn: nil, chunkBytes: chunkBytes,
                        halvesFrom: halvesFrom, sink: DatasetSink.init
                    ).dataset
                    #expect(dataset.users.count == whole.users.count, "\(app) \(chunkBytes) \(halvesFrom)")
                    #expect(dataset.posts.count == whole.posts.count, "\(app) \(chunkBytes) \(halvesFrom)")
                    #expect(Self.findings(dataset) == expected, "\(app) \(chunkBytes) \(halvesFrom)")
                }
            }
        }
    }

    @Test(.enabled(if: apps.contains("triply"), "needs ../shared/testdata/exports/firestore/triply"))
    func aDocumentStoredTwiceInDifferentChunksIsTheWholeTreesError() throws {
        // output-1 a copy of output-0: every document twice, each copy in a chunk and a half of its own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chunked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kinds = folder.appendingPathComponent("all_namespaces/all_kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        let output = EntityOracleTests.outputs(of: "triply").appendingPathComponent("output-0")
        for name in ["output-0", "output-1"] {
            try FileManager.default.copyItem(at: output, to: kinds.appendingPathComponent(name))
        }
        let schema = try SchemaFile.load(path: Self.schemas.appendingPathComponent("triply.toml").path)
        func message(_ read: () throws(InputError) -> Void) -> String {
            do {
                try read()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let expected = message { () throws(InputError) in _ = try ExportLoader.firestoreTree(folder.path) }
        #expect(expected.contains("is stored twice"))
        for halvesFrom in [0, Int.max] {
            let got = message { () throws(InputError) in
                _ = try ExportLoader.walkFirestore(
                    path: folder.path, schema: schema, foreignKeys: [:], warn: nil, chunkBytes: 1,
                    halvesFrom: halvesFrom, sink: DatasetSink.init)
            }
            #expect(got == expected)
        }
    }
}
