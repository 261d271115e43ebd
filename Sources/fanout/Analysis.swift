import FanoutCore
import FanoutImport

/// An export read, derived and audited: what every command starts from.
struct Analysis {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult

    /// Reads `options.export` and runs the rules `configuration` enables.
    init(_ options: ExportOptions, configuration: AuditConfiguration = AuditConfiguration()) throws {
        dataset = try ExportLoader.load(path: options.export, schema: try options.resolvedSchema())
        derived = DerivedData(dataset)
        audit = Audit.run(CheckContext(dataset: dataset, derived: derived), configuration: configuration)
    }
}
