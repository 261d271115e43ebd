import ArgumentParser
import FanoutImport
import FanoutOutput
import Foundation

/// `fanout infer`: a schema file proposed from an export's data, each declaration with its evidence
/// (docs/layouts.md "Inferring a schema").
struct InferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Propose a schema file for an export from its data, with the evidence for each declaration.",
        discussion: """
            Reads the export (a Realtime Database JSON file, a Parse folder or .zip, a Firestore export) whole, finds \
            its collections, the users and the posts, the edge sets, and the counters, mirrors and copies the data \
            holds, and writes a schema file that `fanout check --schema` reads unchanged. Each declaration is \
            commented with how many rows agree with it and where they do not; candidates whose agreement could be \
            chance are listed at the end, not declared. Review the file, then run `fanout check EXPORT --schema FILE`.
            """
    )

    @Argument(help: "The export: a JSON file (plain or gzip), -, a Parse folder or .zip, a Firestore export.")
    var export: String

    @Option(name: .shortAndLong, help: "Write the schema to this file (default: standard output).")
    var out: String?

    @ArgumentParser.Flag(help: "Replace --out when it exists.")
    var force = false

    @Option(help: ArgumentHelp("The collection that holds the users (its top-level key).", valueName: "NAME"))
    var users: String?

    @Option(help: ArgumentHelp("The collection that holds the posts (its top-level key).", valueName: "NAME"))
    var posts: String?

    @ArgumentParser.Flag(help: "Print the reasoning for every candidate on standard error.")
    var explain = false

    @Option(help: ArgumentHelp("The fewest rows a declaration must be measured on (default 3).", valueName: "N"))
    var minSupport: Int = 3

    @Option(
        help: ArgumentHelp(
            "The share of rows that must agree for a declaration, from 0 to 1 (default 0.9).", valueName: "F"))
    var threshold: Double = 0.9

    func run() throws {
        guard minSupport >= 1 else { throw UsageError(message: "--min-support \(minSupport): expected 1 or more") }
        guard threshold > 0, threshold <= 1 else {
            throw UsageError(message: "--threshold \(threshold): expected a share above 0 and at most 1, e.g. 0.9")
        }
        if let out, !force, FileManager.default.fileExists(atPath: out) {
            throw UsageError(message: "\(out) exists; pass --force to replace it")
        }
        // Phases as `check` shows them: on a terminal, and as `timing` lines for the benchmark.
        let tree = try PhaseClock.measure("read") { try InferTree.read(path: export) }
        let options = InferOptions(minimumSupport: minSupport, threshold: threshold, users: users, posts: posts)
        let inference = try PhaseClock.measure("infer") {
            try Inference.run(
                tree, source: export == "-" ? "standard input" : export, name: schemaName, options: options)
        }
        if explain {
            for line in inference.explanations { printStatus(line) }
        }
        let text = inference.schema.text
        if let out {
            try AtomicFile.write(text, to: out)
            let declared = inference.explanations.filter { $0.contains(": declared") }.count
            printStatus(
                "wrote \(out): \(inference.schema.sections.count) sections, \(declared) candidates declared, "
                    + "\(inference.schema.rejected.count) not; review it, then run fanout check \(export) --schema \(out)"
            )
        } else {
            printOutput(text)
        }
    }

    /// The schema's name: the output file's, else the export's, without folders and extensions.
    private var schemaName: String {
        let base = ((out ?? (export == "-" ? "export" : export)) as NSString).lastPathComponent
        let name = base.split(separator: ".").first.map(String.init) ?? base
        return name.isEmpty ? "inferred" : name
    }
}
