import ArgumentParser
import FanoutGenerate
import FanoutOutput

/// `fanout generate`: writes a deterministic synthetic Makestagram export.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic synthetic Makestagram export, optionally with injected defects.",
        discussion: "About 5.5 KB per user: 20,000 users make about 110 MB, 200,000 about 1.1 GB."
    )

    @Option(help: "The number of users.")
    var users: Int

    @Option(help: "The random seed; the same seed gives the same bytes.")
    var seed: UInt64 = 1

    @Option(help: "The number of defects to inject, spread over every kind the checks know.")
    var defects: Int = 0

    @Option(name: .shortAndLong, help: "The file to write.")
    var out: String

    @Option(help: "Also write the injected defects as JSON lines (kind and paths) to this file.")
    var manifest: String?

    func validate() throws {
        guard users > 0 else { throw ValidationError("--users must be at least 1") }
        guard defects >= 0 else { throw ValidationError("--defects must not be negative") }
    }

    func run() throws {
        let generator = ExportGenerator(ExportGenerator.Options(users: users, seed: seed, defects: defects))
        // Streamed through the one atomic writer, so a killed run leaves no temporary behind for long.
        let injected = try generator.write(toFile: out)
        if let manifest {
            let lines = injected.map { defect in
                "{\"kind\": \"\(defect.kind)\", \"paths\": [" + defect.paths.map { "\"\($0)\"" }.joined(separator: ", ")
                    + "]}"
            }
            try AtomicFile.write(lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"), to: manifest)
        }
        printStatus("wrote \(out) (\(users) users, \(injected.count) defects)")
    }
}
