import FanoutCore
import FanoutImport

/// An export read, derived and audited: what every command starts from.
struct Analysis {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult

    /// Reads `input` (laid out as its schema, or as the preset its top-level keys name) and runs the rules
    /// `configuration` enables.
    init(_ input: ExportInput, configuration: AuditConfiguration = AuditConfiguration()) throws {
        let dataset = try PhaseClock.measure("read") {
            // Progress in megabytes read.
            try ExportLoader.load(path: input.path, schema: input.schema, progress: { read, total in
                TerminalProgress.shared.update(done: read >> 20, total: total >> 20)
            }, warn: { printStatus("warning: \($0)") })
        }
        let derived = PhaseClock.measure("derive") { DerivedData(dataset) }
        audit = PhaseClock.measure("check") {
            Audit.run(CheckContext(dataset: dataset, derived: derived), configuration: configuration)
        }
        self.dataset = dataset
        self.derived = derived
    }
}
