import ArgumentParser
import FanoutExport
import FanoutGenerate
import FanoutImport
import FanoutJSON
import FanoutOutput

/// `fanout generate`: writes a deterministic synthetic Makestagram export.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic synthetic Makestagram export, optionally with injected defects.",
        discussion: "About 5.5 KB per user: 20,000 users make about 110 MB, 200,000 about 1.1 GB."
    )

    @Option(help: "The number of users, \(NumberRange.users.expected).", transform: NumberRange.users.parse)
    var users: Int

    @Option(help: "The random seed; the same seed gives the same bytes.")
    var seed: UInt64 = 1

    @Option(
        help:
            "The number of defects to inject, spread over every kind the checks know; \(NumberRange.defects.expected).",
        transform: NumberRange.defects.parse)
    var defects: Int = 0

    @Option(name: .shortAndLong, help: "The file to write (with --format firestore, the folder).")
    var out: String

    @Option(
        help: ArgumentHelp(
            "json: a Realtime Database export; firestore: the same data as a Firestore emulator export folder "
                + "(each top-level key a collection, its members documents), which `--import` loads.",
            valueName: "json|firestore"))
    var format: Format = .json

    enum Format: String, ExpressibleByArgument {
        case json, firestore
    }

    @Option(help: "Also write the injected defects as JSON lines (kind and paths) to this file.")
    var manifest: String?

    func run() throws {
        let generator = ExportGenerator(ExportGenerator.Options(users: users, seed: seed, defects: defects))
        // Streamed through the one atomic writer, so a killed run leaves no temporary behind for long.
        let injected: [ExportGenerator.Defect]
        switch format {
        case .json: injected = try generator.write(toFile: out)
        case .firestore: injected = try writeFirestore(generator)
        }
        if let manifest {
            let lines = injected.map { defect in
                "{\"kind\": \"\(defect.kind)\", \"paths\": [" + defect.paths.map { "\"\($0)\"" }.joined(separator: ", ")
                    + "]}"
            }
            try AtomicFile.write(lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"), to: manifest)
        }
        printStatus("wrote \(out) (\(users) users, \(injected.count) defects)")
    }

    /// The generated tree as documents, in an emulator folder, converted one document at a time.
    private func writeFirestore(_ generator: ExportGenerator) throws -> [ExportGenerator.Defect] {
        var bytes: [UInt8] = []
        let injected = generator.write { chunk in bytes.append(contentsOf: chunk) }
        do {
            try EmulatorFolder.write(to: out) { add in
                try bytes.withUnsafeBytes { raw in try TreeDocuments.each(in: raw, add) }
            }
        } catch let error as TreeDocuments.Unstorable {
            throw UsageError(message: "the generated export has no Firestore form: \(error)")
        }
        return injected
    }
}
