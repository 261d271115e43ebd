import FanoutCore

extension Schema {
    /// The top-level keys the schema's relations start with, once each, in relation order: what a Firebase
    /// export of this layout has at its root, and the class files of a Parse export.
    package var rootKeys: [String] {
        var seen = Set<String>()
        return RelationKind.allCases.compactMap { relation -> String? in
            guard case .literal(let text)? = relation.pattern(in: self)?.segments.first, seen.insert(text).inserted else { return nil }
            return text
        }
    }
}
