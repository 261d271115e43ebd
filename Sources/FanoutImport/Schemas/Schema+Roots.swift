import FanoutCore

extension Schema {
    /// The top-level keys the schema's relations start with, once each, in relation order: what a Firebase
    /// export of this layout has at its root, and the class files of a Parse export. Comments are left out: many
    /// apps keep a `comments` tree, so it tells no layout from another (detection decides by these keys).
    package var rootKeys: [String] {
        var seen = Set<String>()
        return RelationKind.allCases.filter { $0 != .comments }.compactMap { relation -> String? in
            guard case .literal(let text)? = relation.pattern(in: self)?.segments.first, seen.insert(text).inserted
            else { return nil }
            return text
        }
    }
}
