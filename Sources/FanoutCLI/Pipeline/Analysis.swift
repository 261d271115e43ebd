import FanoutCore
import FanoutImport

/// An export read, derived and audited: what every command starts from.
struct Analysis {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult
    private let input: ExportInput
    /// Standard input's bytes, kept for ``locate(_:name:)`` when asked for, since it cannot be read again.
    private let standardInput: ExportBytes?

    /// Reads `input` (laid out as its schema, or as the preset its top-level keys name) and runs the rules
    /// `configuration` enables. `keepsStandardInput`: keep the bytes of `-` for ``locate(_:name:)``.
    init(_ input: ExportInput, configuration: AuditConfiguration = AuditConfiguration(), keepsStandardInput: Bool = false) throws {
        var kept: ExportBytes?
        let dataset = try PhaseClock.measure("read") {
            // Progress in megabytes read.
            let progress = { (read: Int, total: Int) in TerminalProgress.shared.update(done: read >> 20, total: total >> 20) }
            let warn = { (message: String) in printStatus("warning: \(message)") }
            guard input.path == "-", keepsStandardInput else {
                return try ExportLoader.load(path: input.path, schema: input.schema, progress: progress, warn: warn)
            }
            let bytes = try ExportBytes(path: "-")
            kept = bytes
            return try ExportLoader.load(bytes, path: "-", schema: input.schema, progress: progress, warn: warn)
        }
        let derived = PhaseClock.measure("derive") { DerivedData(dataset) }
        audit = PhaseClock.measure("check") {
            Audit.run(CheckContext(dataset: dataset, derived: derived), configuration: configuration)
        }
        self.dataset = dataset
        self.derived = derived
        self.input = input
        standardInput = kept
    }

    /// `findings` with the line and column of their first paths, found in a second pass over the export (only
    /// the reports that show them ask); a JSON export's locations name the file `name`.
    func locate(_ findings: [Finding], name: String) throws -> [Finding] {
        try PhaseClock.measure("locate") {
            try FindingLocator.locate(findings, path: input.path, bytes: standardInput, name: name)
        }
    }
}
