import FanoutTemplates

/// What one page is made from, before it is rendered: the template and the values it is given, or text made
/// without a template. Its ``inputKey`` is a hash of all of it, which a rebuild compares with the previous
/// build's to skip rendering an unchanged page (docs/site.md "Rebuilds, progress and timings").
///
/// The key hashes exactly the values the template is given (built by the same code that renders), the texts of
/// the template and of every template it includes, and ``RendererIdentity``: what the page shows cannot change
/// without the key changing, short of a 64-bit hash collision.
struct PageSource {
    enum Body {
        /// A template (its name) and the values it is rendered with.
        case template(String, [String: Any])
        /// Text made without a template (assets, the search data, the JSON report, the sitemap, feeds): its own input.
        case text(String)
        /// Such text as UTF-8 bytes, made as bytes (a feed, whose entries are kept as bytes: ``CardCache/appendFeedEntry(_:to:_:)``),
        /// so that no `String` is made of it only to be written.
        case bytes([UInt8])
    }

    /// Where the page lives, relative to the site's root.
    let path: String
    let body: Body

    /// A hash of everything the page shows, given the templates it is rendered with.
    func inputKey(templates: TemplateSet) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(RendererIdentity.hash)
        hasher.combine(path)
        switch body {
        case .template(let name, let values):
            hasher.combine(name)
            hasher.combine(templates.inputHash(of: name))
            hasher.combine(templateValue: values)
        case .text(let text):
            hasher.combine(text)
        case .bytes(let bytes):
            // As the same text's: a page's key does not depend on how its text was made.
            hasher.combine(bytes.withUnsafeBufferPointer(StableHasher.hash))
        }
        return hasher.finalize()
    }

    /// The page's text as UTF-8 bytes, for its file. `fragments`: the build's kept list items (``TemplateFragments``).
    func renderBytes(templates: TemplateSet, fragments: (any TemplateFragments)? = nil) throws(RenderError) -> [UInt8] {
        switch body {
        case .template(let name, let values):
            do {
                return try templates.renderBytes(values, template: name, fragments: fragments)
            } catch {
                throw error.onPage(path)
            }
        case .text(let text): return Array(text.utf8)
        case .bytes(let bytes): return bytes
        }
    }

    /// The page's text.
    func render(templates: TemplateSet) throws(RenderError) -> String {
        switch body {
        case .template(let name, let values):
            do {
                return try templates.render(values, template: name)
            } catch {
                throw error.onPage(path)
            }
        case .text(let text): return text
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }
}
