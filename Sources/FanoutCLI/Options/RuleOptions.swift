import ArgumentParser
import FanoutCore

/// Options choosing which rules run.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rule"), help: ArgumentHelp(
        "Switch a rule off or re-grade it: RULE=off|info|warning|error. Repeatable; overrides [rules] in fanout.toml.",
        valueName: "RULE=SETTING"))
    var rules: [String] = []

    /// The configuration the options describe, over the settings of the project file (`base`).
    func configuration(base: [String: RuleSetting] = [:]) throws -> AuditConfiguration {
        var settings = base
        for text in rules {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let setting = RuleSetting(parts[1]) else {
                throw UsageError(message: "--rule \(text): expected RULE=off|info|warning|error")
            }
            guard RuleCatalog.descriptor(parts[0]) != nil else {
                throw UsageError(message: "--rule \(text): \(RuleCatalog.unknownMessage(parts[0]))")
            }
            settings[parts[0]] = setting
        }
        return AuditConfiguration(settings: settings)
    }
}
