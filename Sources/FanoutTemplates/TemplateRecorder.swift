import FanoutLocked

/// Collects, per template, every name the values it was rendered with hold, at any depth: how a test checks
/// that ``TemplateVariables`` lists what the code really gives each template.
package final class TemplateRecorder: Sendable {
    private let names = Locked([String: Set<String>]())

    /// The names recorded so far, by template.
    package var recorded: [String: Set<String>] { names.value }

    package func record(_ context: Any, template: String) {
        var found = Set<String>()
        Self.collect(context, into: &found)
        names.withLock { $0[template, default: []].formUnion(found) }
    }

    private static func collect(_ value: Any, into found: inout Set<String>) {
        if let values = value as? any TemplateValues {
            for name in type(of: values).names {
                guard let child = values.child(named: name) else { continue }
                found.insert(name)
                collect(child, into: &found)
            }
        } else if let dictionary = value as? [String: Any] {
            for (name, child) in dictionary {
                found.insert(name)
                collect(child, into: &found)
            }
        } else if let array = value as? [Any] {
            for element in array { collect(element, into: &found) }
        }
    }
}
