import FanoutCore
import FanoutImport

/// An export read, derived and audited: what every command starts from.
struct Analysis {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult

    /// Reads `options.export` (laid out as `--schema`, or as the preset its top-level keys name) and runs the
    /// rules `configuration` enables.
    init(_ options: ExportOptions, configuration: AuditConfiguration = AuditConfiguration()) throws {
        let schema = try options.resolvedSchema()
        let dataset = try PhaseClock.measure("read") {
            // Progress in megabytes read.
            try ExportLoader.load(path: options.export, schema: schema) { read, total in
                TerminalProgress.shared.update(done: read >> 20, total: total >> 20)
            }
        }
        let derived = PhaseClock.measure("derive") { DerivedData(dataset) }
        audit = PhaseClock.measure("check") {
            Audit.run(CheckContext(dataset: dataset, derived: derived), configuration: configuration)
        }
        self.dataset = dataset
        self.derived = derived
    }
}
