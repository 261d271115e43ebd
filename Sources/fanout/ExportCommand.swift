import ArgumentParser
import FanoutRender
import Foundation

/// `fanout export`: writes the canonical snapshot of the derived data.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write snapshot.json: timelines, like counts and likers in canonical, byte-stable JSON."
    )

    @OptionGroup var input: ExportOptions

    @Option(name: .shortAndLong, help: "The folder to write snapshot.json into (created when missing).")
    var out: String

    func run() throws {
        let analysis = try Analysis(input)
        let path = (out as NSString).appendingPathComponent("snapshot.json")
        try FileOutput.write(Snapshot.render(analysis.dataset, analysis.derived), to: path)
        printStatus("wrote \(path)")
    }
}
