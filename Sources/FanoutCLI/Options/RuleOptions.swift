import ArgumentParser
import FanoutCore

/// Options choosing which rules run.
struct RuleOptions: ParsableArguments {
    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp(
            "Switch a rule off or re-grade it: RULE=off|info|warning|error. Repeatable; overrides [rules] in fanout.toml.",
            valueName: "RULE=SETTING"))
    var rules: [String] = []

    /// The configuration the options describe, over the settings of the project file (`project`), for an export laid
    /// out as `schema` (whose declarations are rules too; nil: detected, a preset's).
    func configuration(_ project: ProjectConfig = ProjectConfig(), schema: Schema?) throws -> AuditConfiguration {
        do {
            try project.checkRules(schema: schema)
        } catch {
            throw UsageError(message: error.description)
        }
        var settings = project.rules
        for text in rules {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let setting = RuleSetting(parts[1]) else {
                throw UsageError(message: "--rule \(text): expected RULE=off|info|warning|error")
            }
            guard RuleCatalog.descriptor(parts[0], schema: schema) != nil else {
                throw UsageError(message: "--rule \(text): \(RuleCatalog.unknownMessage(parts[0], schema: schema))")
            }
            settings[parts[0]] = setting
        }
        return AuditConfiguration(settings: settings)
    }
}
