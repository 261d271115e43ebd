/// A kind of page `--pages` chooses: a name the declarations of ``PageDeclarations`` carry (the timeline pages'
/// Markdown twins are `markdown`), or the sitemap, which lists the pages of the others.
public struct PageKind: RawRepresentable, Hashable, Sendable, CaseIterable {
    public let rawValue: String

    /// The kind called `rawValue`, if a declaration carries it (or it is `sitemap`).
    public init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// A kind's name, for the declarations.
    init(_ name: String) { rawValue = name }

    /// Every kind, in the order of the declarations, the sitemap last.
    public static let allCases: [PageKind] = {
        var kinds: [PageKind] = []
        for kind in PageDeclarations.all.compactMap(\.kind) where !kinds.contains(kind) { kinds.append(kind) }
        return kinds + [.sitemap]
    }()

    /// `sitemap.xml`, listing every HTML page the build writes; only with a base URL.
    public static let sitemap = PageKind("sitemap")
}
