import FanoutCore
import FanoutImport

/// An export read, derived and audited: what every command starts from.
struct Analysis {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult
    /// How long reading, deriving and checking took, in wall-clock seconds, in that order.
    let phases: [(phase: String, seconds: Double)]
    private let input: ExportInput
    /// Standard input's bytes, kept for a second pass (``locate(_:name:)``, ``exportBytes()``) when asked for,
    /// since it cannot be read again.
    private let standardInput: ExportBytes?

    /// Reads `input` (laid out as its schema, or as the preset its top-level keys name) and runs the rules
    /// `configuration` enables. `keepsStandardInput`: keep the bytes of `-` for a second pass.
    init(
        _ input: ExportInput, configuration: AuditConfiguration = AuditConfiguration(), keepsStandardInput: Bool = false
    ) throws {
        var kept: ExportBytes?
        var phases: [(phase: String, seconds: Double)] = []
        let dataset = try PhaseClock.measure("read", seconds: { phases.append(("read", $0)) }) {
            // Progress in megabytes read.
            let progress = { (read: Int, total: Int) in
                TerminalProgress.shared.update(done: read >> 20, total: total >> 20)
            }
            let warn = { (message: String) in printStatus("warning: \(message)") }
            guard input.path == "-", keepsStandardInput else {
                return try ExportLoader.load(path: input.path, schema: input.schema, progress: progress, warn: warn)
            }
            let bytes = try ExportBytes(path: "-")
            kept = bytes
            return try ExportLoader.load(bytes, path: "-", schema: input.schema, progress: progress, warn: warn)
        }
        let derived = PhaseClock.measure("derive", seconds: { phases.append(("derive", $0)) }) { DerivedData(dataset) }
        audit = PhaseClock.measure("check", seconds: { phases.append(("check", $0)) }) {
            Audit.run(CheckContext(dataset: dataset, derived: derived), configuration: configuration)
        }
        if PhaseClock.enabled {
            for (rule, seconds) in audit.ruleSeconds {
                printStatus("timing rule \(rule) \(String(format: "%.3f", seconds))")
            }
        }
        self.dataset = dataset
        self.derived = derived
        self.phases = phases
        self.input = input
        standardInput = kept
    }

    /// The export's bytes again, for a second pass over them (the repaired export): standard input's kept
    /// bytes, or the file read anew.
    func exportBytes() throws -> ExportBytes {
        if let standardInput { return standardInput }
        return try ExportBytes(path: input.path)
    }

    /// `findings` with the line and column of their first paths, found in a second pass over the export (only
    /// the reports that show them ask); a JSON export's locations name the file `name`.
    func locate(_ findings: [Finding], name: String) throws -> [Finding] {
        try PhaseClock.measure("locate") {
            try FindingLocator.locate(findings, path: input.path, bytes: standardInput, name: name)
        }
    }
}
