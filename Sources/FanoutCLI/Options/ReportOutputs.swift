import ArgumentParser
import FanoutReports

/// `--output FILE`…, paired with a command's `--format`s: the i-th output goes with the i-th format (docs/reports.md
/// "Report formats"). `check` and `report` take it in ``ReportOptions``, `fanout diff` beside its own formats.
struct ReportOutputs: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write the report of the matching --format to this file instead of standard output. Repeatable.",
            valueName: "FILE"))
    var outputs: [String] = []

    /// The reports asked for in `formats`, paired with their outputs.
    func requests<Format>(_ formats: [Format]) throws -> [ReportRequest<Format>] {
        try ReportRequest.pair(formats: formats, outputs: outputs)
    }
}
