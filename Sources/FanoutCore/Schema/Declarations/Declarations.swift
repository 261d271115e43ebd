/// The copies an app keeps beyond the relations, declared in its schema file, each checked by a rule named
/// after it (docs/layouts.md "Declaring your app's copies").
public struct Declarations: Sendable, Equatable {
    public var counters: [CounterDeclaration] = []
    public var mirrors: [MirrorDeclaration] = []
    public var copies: [CopyDeclaration] = []
    public var references: [ReferenceDeclaration] = []

    public init(
        counters: [CounterDeclaration] = [], mirrors: [MirrorDeclaration] = [], copies: [CopyDeclaration] = [],
        references: [ReferenceDeclaration] = []
    ) {
        self.counters = counters
        self.mirrors = mirrors
        self.copies = copies
        self.references = references
    }

    /// Whether nothing is declared.
    public var isEmpty: Bool { counters.isEmpty && mirrors.isEmpty && copies.isEmpty && references.isEmpty }

    /// Every declaration's name, in rule order (counters, mirrors, copies, references, each as written).
    public var names: [String] {
        counters.map(\.name) + mirrors.map(\.name) + copies.map(\.name) + references.map(\.name)
    }
}
