import FanoutCore

/// What `fanout check --explain RULE` prints.
enum RuleExplanation {
    /// The rule's id, severity, summary, explanation and whether its fix is mechanical.
    static func text(_ id: String, schema: Schema? = nil) throws -> String {
        guard let rule = RuleCatalog.descriptor(id, schema: schema) else {
            throw UsageError(message: "--explain \(id): \(RuleCatalog.unknownMessage(id, schema: schema))")
        }
        let fix =
            rule.isMechanical
            ? "Fix: mechanical; each finding carries it, and `fanout export EXPORT --out DIR --repair` writes the patch."
            : "Fix: none that is mechanical; a person has to decide."
        return [
            "\(rule.id) (default severity: \(rule.defaultSeverity.rawValue))", "", wrap(rule.summary), "",
            wrap(rule.explanation), "", wrap(fix),
        ].joined(separator: "\n") + "\n"
    }

    /// `text` broken into lines of at most `width` characters at spaces, for terminals.
    static func wrap(_ text: String, width: Int = 100) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
