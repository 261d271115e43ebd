import FanoutTestSupport
import Foundation

extension CLI {
    /// Runs `fanout` with `args` built at run time (the variadic `run` takes literals).
    @discardableResult
    /// `subfolder` runs it inside a folder of the test's folder, as a user inside a site project would.
    /// `environment`: variables set for it, over this process's.
    func run(_ args: [String], stdin: Data? = nil, in subfolder: String? = nil, environment: [String: String] = [:])
        throws -> Result
    {
        try runProcess(Self.binary, args, in: subfolder.map(url) ?? folder, stdin: stdin, environment: environment)
    }

    /// The JSON report of `check` on `export` (with extra arguments), parsed.
    func jsonReport(_ export: String, _ extra: [String] = []) throws -> (
        code: Int32, findings: [[String: Any]], report: [String: Any]
    ) {
        let result = try run(["check", export, "--format", "json"] + extra)
        guard let report = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw CLIError("no JSON report (exit \(result.code)): \(result.stderr)")
        }
        return (result.code, report["findings"] as? [[String: Any]] ?? [], report)
    }
}

/// A test setup failure with a message.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Firebase's semantics for a multi-path update, applied to a JSONSerialization tree, independently of Fanout:
/// each path is set (parents created, leaves replaced by objects), `null` deletes, and objects left empty
/// disappear, as the Realtime Database stores no empty nodes.
enum FirebasePatch {
    static func apply(_ patch: [String: Any], to root: [String: Any]) -> [String: Any] {
        var root = root
        for (path, value) in patch {
            root = set(
                path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)[...], value, in: root)
        }
        return root
    }

    private static func set(_ keys: ArraySlice<String>, _ value: Any, in node: [String: Any]) -> [String: Any] {
        var node = node
        let key = keys.first!
        if keys.count == 1 {
            node[key] = value is NSNull ? nil : value
        } else {
            let child = set(keys.dropFirst(), value, in: node[key] as? [String: Any] ?? [:])
            node[key] = child.isEmpty ? nil : child
        }
        return node
    }
}
