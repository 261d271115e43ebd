import FanoutCore
import FanoutJSON

/// A schema's declarations as the tables' manifest describes them, so that `fanout sql` over a tables folder writes
/// the declared rules' queries (docs/layouts.md "Declaring your app's copies"). The keys are the schema file's.
enum DeclarationsDescription {
    static func json(_ declarations: Declarations) -> JSONValue {
        func severity(_ s: Severity?) -> [(key: String, value: JSONValue)] {
            s.map { [("severity", .string($0.rawValue))] } ?? []
        }
        return .object([
            (
                "copies",
                .array(
                    declarations.copies.map { copy in
                        .object(
                            [
                                ("name", .string(copy.name)), ("at", .string(copy.at.description)),
                                ("of", .string("\(copy.of.rawValue).\(copy.field)")),
                                ("via", .string(copy.via.description)),
                            ] + (copy.copyIsTruth ? [("truth", JSONValue.string("copy"))] : [])
                                + severity(copy.severity))
                    })
            ),
            (
                "counters",
                .array(
                    declarations.counters.map { counter in
                        .object(
                            [
                                ("name", .string(counter.name)), ("at", .string(counter.at.description)),
                                ("counts", .string(counter.counts.rawValue)),
                            ] + (counter.per.map { [("per", JSONValue.string($0))] } ?? [])
                                + (counter.countsSelf ? [("self", JSONValue.string("counted"))] : [])
                                + severity(counter.severity)
                        )
                    })
            ),
            (
                "mirrors",
                .array(
                    declarations.mirrors.map { mirror in
                        .object(
                            [
                                ("name", .string(mirror.name)), ("of", .string(mirror.of.rawValue)),
                                ("at", .string(mirror.at.description)),
                                (
                                    "ends",
                                    .object(
                                        mirror.ends.sorted { $0.key < $1.key }.map {
                                            ($0.key, .string($0.value.description))
                                        })
                                ),
                            ] + (mirror.value.map { [("value", JSONValue.string($0))] } ?? [])
                                + (mirror.recordPair.isEmpty
                                    ? [] : [("pair", JSONValue.array(mirror.recordPair.map { .string($0) }))])
                                + severity(mirror.severity))
                    })
            ),
            (
                "references",
                .array(
                    declarations.references.map { reference in
                        .object(
                            [
                                ("name", .string(reference.name)), ("at", .string(reference.at.description)),
                                ("to", .string(reference.to.written)), ("deletable", .bool(reference.deletable)),
                            ] + severity(reference.severity))
                    })
            ),
        ])
    }

    /// The declarations `json(_:)` describes; nil when any is malformed.
    static func declarations(_ value: JSONValue, in schema: Schema) -> Declarations? {
        var declarations = Declarations()
        func pattern(_ item: JSONValue, _ key: String) -> PathPattern? {
            item[key]?.stringValue.flatMap(PathPattern.init)
        }
        func severity(_ item: JSONValue) -> Severity? {
            item["severity"]?.stringValue.flatMap(Severity.init(rawValue:))
        }
        for item in value["counters"]?.arrayValue ?? [] {
            guard let name = item["name"]?.stringValue, let at = pattern(item, "at"),
                let counts = item["counts"]?.stringValue.flatMap(DeclaredRelation.init(rawValue:))
            else { return nil }
            var counter = CounterDeclaration(
                name: name, at: at, counts: counts, per: item["per"]?.stringValue, severity: severity(item))
            counter.countsSelf = item["self"]?.stringValue == "counted"
            declarations.counters.append(counter)
        }
        for item in value["mirrors"]?.arrayValue ?? [] {
            guard let name = item["name"]?.stringValue, let at = pattern(item, "at"),
                let of = item["of"]?.stringValue.flatMap(DeclaredRelation.init(rawValue:))
            else { return nil }
            var ends: [String: FieldPath] = [:]
            for (end, path) in item["ends"]?.objectMembers ?? [] {
                if let text = path.stringValue { ends[end] = FieldPath(text) }
            }
            var mirror = MirrorDeclaration(
                name: name, of: of, at: at, ends: ends, value: item["value"]?.stringValue, severity: severity(item))
            mirror.recordPair = item["pair"]?.arrayValue?.compactMap(\.stringValue) ?? []
            declarations.mirrors.append(mirror)
        }
        for item in value["copies"]?.arrayValue ?? [] {
            guard let name = item["name"]?.stringValue, let at = pattern(item, "at"), let of = item["of"]?.stringValue,
                let via = item["via"]?.stringValue
            else { return nil }
            let parts = of.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let relation = DeclaredRelation(rawValue: parts[0]) else { return nil }
            let source: KeySource =
                via.hasPrefix("{") && via.hasSuffix("}")
                ? .capture(String(via.dropFirst().dropLast())) : .field(FieldPath(via))
            var copy = CopyDeclaration(
                name: name, at: at, of: relation, field: parts[1], via: source, severity: severity(item))
            copy.copyIsTruth = item["truth"]?.stringValue == "copy"
            declarations.copies.append(copy)
        }
        for item in value["references"]?.arrayValue ?? [] {
            guard let name = item["name"]?.stringValue, let at = pattern(item, "at"),
                let target = item["to"]?.stringValue.flatMap({ ReferenceDeclaration.Target(written: $0, in: schema) })
            else { return nil }
            declarations.references.append(
                ReferenceDeclaration(
                    name: name, at: at, to: target, deletable: item["deletable"]?.boolValue ?? false,
                    severity: severity(item)))
        }
        return declarations
    }
}
