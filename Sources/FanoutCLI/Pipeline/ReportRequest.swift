import FanoutReports

/// One report a run writes: a format of the command's (`check`'s ``ReportFormat``, `fanout diff`'s
/// ``DiffFormat``…) and where it goes (nil: standard output).
struct ReportRequest<Format: OutputFormat>: Equatable {
    let format: Format
    let output: String?

    /// Pairs the i-th `--output` with the i-th `--format`; formats without an output go to standard output,
    /// where at most one report fits. No `--format` at all means text.
    static func pair(formats: [Format], outputs: [String]) throws -> [ReportRequest] {
        let formats = formats.isEmpty ? [.text] : formats
        guard outputs.count <= formats.count else {
            throw UsageError(
                message: "\(outputs.count) --output for \(formats.count) --format: "
                    + "give each --output its --format (the i-th --output goes with the i-th --format)")
        }
        let requests = formats.enumerated().map { i, format in
            ReportRequest(format: format, output: i < outputs.count ? outputs[i] : nil)
        }
        let toStdout = requests.filter { $0.output == nil }
        guard toStdout.count <= 1 else {
            throw UsageError(
                message: "only one report can go to standard output, but "
                    + toStdout.map { "--format \($0.format.rawValue)" }.joined(separator: " and ")
                    + " have no --output")
        }
        var seen = Set<String>()
        for output in outputs where !seen.insert(output).inserted {
            throw UsageError(message: "--output \(output) is given twice")
        }
        return requests
    }
}
