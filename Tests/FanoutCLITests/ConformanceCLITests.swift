import Foundation
import Testing

/// JSONTestSuite through the command line: what a user sees when `fanout check` is given each file.
///
/// The reader's own conformance is tested in FanoutJSONTests; this checks that the whole pipeline (detection,
/// walker, error reporting, exit codes) keeps it: every `n_` file is "invalid JSON" with a position, every `y_`
/// file is valid JSON but not an export, and nothing crashes.
@Suite struct ConformanceCLITests {
    static let suite = CLI.repository.appendingPathComponent("Tests/FanoutJSONTests/JSONTestSuite/test_parsing")

    static func files(_ prefix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: suite.path).filter { $0.hasPrefix(prefix) }.sorted()
            .map { suite.appendingPathComponent($0) }
    }

    /// Runs `fanout check` on every file, a few processes at a time (300 one after the other take too long).
    static func checkAll(_ files: [URL]) throws -> [(URL, CLI.Result)] {
        let cli = try CLI()
        let lanes = 4
        let results = Results(count: files.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: files.count, by: lanes) {
                results.set(index, try? cli.run(["check", files[index].path]))
            }
        }
        return try files.indices.map { index in
            guard let result = results.get(index) else {
                throw CLIError("could not run fanout on \(files[index].path)")
            }
            return (files[index], result)
        }
    }

    @Test func everyInvalidFileIsInvalidJSONWithItsPosition() throws {
        let files = try Self.files("n_")
        #expect(files.count >= 180)
        for (file, result) in try Self.checkAll(files) {
            #expect(result.code == 2, "\(file.lastPathComponent): exit \(result.code) \(result.stderr)")
            let prefix = "Error: \(file.path): invalid JSON at line "
            #expect(result.stderr.hasPrefix(prefix), "\(file.lastPathComponent): \(result.stderr)")
            #expect(result.stderr.contains(try Regex(#"line \d+, column \d+: "#)), "\(file.lastPathComponent)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(file.lastPathComponent)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func everyValidFileIsValidJSONButNotAnExport() throws {
        let files = try Self.files("y_")
        #expect(files.count >= 90)
        for (file, result) in try Self.checkAll(files) {
            #expect(result.code == 2, "\(file.lastPathComponent): exit \(result.code) \(result.stderr)")
            // Arrays and scalars are "not a Firebase export"; objects without an export's keys "cannot tell the layout".
            let prefix = "Error: \(file.path): "
            let reason = result.stderr.dropFirst(prefix.count)
            #expect(result.stderr.hasPrefix(prefix), "\(file.lastPathComponent): \(result.stderr)")
            #expect(
                reason.hasPrefix("not a Firebase export: ") || reason.hasPrefix("cannot tell the layout: "),
                "\(file.lastPathComponent): \(result.stderr)")
            #expect(!result.stderr.contains("invalid JSON"), "\(file.lastPathComponent)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(file.lastPathComponent)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func implementationDefinedFilesNeverCrash() throws {
        for (file, result) in try Self.checkAll(try Self.files("i_")) {
            // None is an export: each is either invalid JSON or valid JSON of the wrong shape, never a crash.
            #expect(result.code == 2, "\(file.lastPathComponent): exit \(result.code) \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: \(file.path): "), "\(file.lastPathComponent): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(file.lastPathComponent)")
        }
    }
}

/// Results filled in by concurrent lanes, each writing its own slots.
private final class Results: @unchecked Sendable {
    private var slots: [CLI.Result?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: CLI.Result?) { lock.withLock { slots[index] = result } }

    func get(_ index: Int) -> CLI.Result? { lock.withLock { slots[index] } }
}
