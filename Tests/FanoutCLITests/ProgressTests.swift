import Foundation
import Testing

/// Long runs show progress on stderr when it is a terminal, and nothing of it otherwise.
@Suite struct ProgressTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    @Test func pipesGetNoProgress() throws {
        let cli = try CLI()
        let result = try cli.run("build", Self.demo, "--out", "site")
        #expect(result.code == 0)
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"))
        // The summary line, and the note that a build without a base URL has no sitemap.
        #expect(
            result.stderr.split(separator: "\n").filter { !$0.hasPrefix("note: ") }.count == 1,
            "only the summary line: \(result.stderr)")
    }

    /// `command` run on a pseudo-terminal (util-linux `script`) in `cli`'s folder: its exit status and what the
    /// terminal showed.
    static func onTerminal(_ command: String, in cli: CLI) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = cli.folder
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminalsGetPhasesAndABar() throws {
        let cli = try CLI()
        let (status, text) = try Self.onTerminal("\(CLI.binary.path) build \(Self.demo) --out site", in: cli)
        #expect(status == 0)
        #expect(text.contains("\r\u{1B}[K"), "progress lines redraw in place")
        for phase in ["read", "render"] {
            #expect(text.contains("\(phase) "), "\(phase) shown: \(text.debugDescription)")
        }
        #expect(text.contains(" pages rendered ("))
    }

    /// `infer` shows its two phases on a terminal, and nothing of them in a pipe.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func inferShowsItsPhases() throws {
        let cli = try CLI()
        let (status, text) = try Self.onTerminal(
            "\(CLI.binary.path) infer \(Self.demo) --out inferred.toml", in: cli)
        #expect(status == 0, "\(text)")
        #expect(text.contains("\r\u{1B}[K"), "progress lines redraw in place")
        for phase in ["read", "infer"] {
            #expect(text.contains("\(phase) "), "\(phase) shown: \(text.debugDescription)")
        }
        #expect(text.contains("wrote inferred.toml"))
        let piped = try cli.run("infer", Self.demo, "--out", "piped.toml")
        #expect(piped.code == 0 && !piped.stderr.contains("\r") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
    }
}
