import FanoutJSON

/// Why a baseline file could not be used.
public struct BaselineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the file name.
    public let message: String

    /// One line for stderr.
    public var description: String { message }
}

extension Baseline {
    /// The baseline file format's version; bumped on any incompatible change.
    public static let version = 1

    /// The baseline file: `{"findings": [{"path", "rule"}…], "tool": "fanout", "version": 1}`, keys sorted,
    /// entries sorted by rule then path, two-space indentation, so that it diffs well under version control.
    public func render() -> String {
        let findings = entries.map {
            JSONValue.object([(key: "path", value: .string($0.path)), (key: "rule", value: .string($0.rule))])
        }
        let file = JSONValue.object([
            (key: "findings", value: .array(findings)), (key: "tool", value: .string("fanout")),
            (key: "version", value: .number(JSONNumber(Int64(Self.version)))),
        ])
        return JSONWriter(pretty: true, sortKeys: true).write(file) + "\n"
    }

    /// Reads a baseline file written by ``render()``.
    public static func parse(_ text: String) throws(BaselineError) -> Baseline {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw BaselineError(message: "not a fanout baseline: \(error)")
        }
        guard value["tool"]?.stringValue == "fanout", let version = value["version"]?.numberValue?.int64 else {
            throw BaselineError(
                message: "not a fanout baseline: expected {\"tool\": \"fanout\", \"version\": 1, \"findings\": […]}")
        }
        guard version == Int64(Self.version) else {
            throw BaselineError(
                message: "baseline version \(version) is not supported (this fanout reads version \(Self.version))")
        }
        guard let findings = value["findings"]?.arrayValue else {
            throw BaselineError(message: "not a fanout baseline: \"findings\" must be an array")
        }
        var entries: [BaselineEntry] = []
        for (i, finding) in findings.enumerated() {
            guard let rule = finding["rule"]?.stringValue, let path = finding["path"]?.stringValue else {
                throw BaselineError(message: "findings[\(i)] needs a \"rule\" and a \"path\" string")
            }
            entries.append(BaselineEntry(rule: rule, path: path))
        }
        return Baseline(entries: entries)
    }
}
