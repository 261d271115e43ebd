import FanoutReports
import FanoutTemplates

extension TemplateSet {
    /// The built-in templates, overridden by the files in `overrides` when given and present.
    ///
    /// With `strict`, every name a template looks up must be one the code may give it (``TemplateVariables``),
    /// so that a misspelled variable fails the build instead of rendering as nothing.
    ///
    /// `engine`: which engine renders (``TemplateEngine``).
    public init(overrides: String? = nil, strict: Bool = false, engine: TemplateEngine = .chosen) throws(RenderError) {
        try self.init(
            builtIn: BuiltinTemplateFiles.files, overrides: overrides,
            variables: strict ? { TemplateVariables.names(for: $0, includers: $1) } : nil, kinds: SiteValueKinds.self,
            engine: engine)
    }
}

/// The site's values that the template engine tells apart by their concrete types (``TemplateValueKinds``): the
/// lists of posts and of index rows, and a post's card.
enum SiteValueKinds: TemplateValueKinds {
    static func templateValue(of value: Any) -> TemplateValue? {
        switch value {
        case let items as [PostItem]: .list(items.map { .object($0) })
        case let items as [IndexRow]: .list(items.map { .object($0) })
        case let card as PostCard: .object(card)
        default: nil
        }
    }
}
