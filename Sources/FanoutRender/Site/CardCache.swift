import Dispatch
import FanoutCore

/// Every post's card, rendered once as HTML and as Markdown, for the pages under `users/`.
///
/// A post appears on the timeline of its owner and of every follower, so rendering its card per timeline
/// would repeat the same Markdown-to-HTML conversion and template work many times over. Cards are rendered
/// in parallel, once, and pages insert them verbatim (they are already escaped by their own templates).
struct CardCache: Sendable {
    /// HTML cards by post index, with links relative to a page two folders deep (`users/<uid>/…`).
    let html: [String]
    /// Markdown cards by post index.
    let markdown: [String]

    /// The way back to the root from the pages that use cached cards.
    static let root = "../../"

    /// No cards, for builds without user pages.
    static let empty = CardCache(html: [], markdown: [])

    private init(html: [String], markdown: [String]) {
        self.html = html
        self.markdown = markdown
    }

    init(views: SiteViews, templates: TemplateSet) throws(RenderError) {
        let count = views.dataset.posts.count
        var html = [String](repeating: "", count: count)
        var markdown = [String](repeating: "", count: count)
        let failures = FailureBox()
        html.withUnsafeMutableBufferPointer { htmlBuffer in
            markdown.withUnsafeMutableBufferPointer { markdownBuffer in
                nonisolated(unsafe) let htmlOut = htmlBuffer, markdownOut = markdownBuffer
                let chunk = 256
                DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { c in
                    for p in (c * chunk)..<min(count, (c + 1) * chunk) where !failures.failed {
                        // Each index is written by exactly one iteration.
                        guard views.derived.post(views.dataset.posts[p].key) == p else { continue }
                        let card = views.postCard(p, root: Self.root)
                        do throws(RenderError) {
                            htmlOut[p] = try templates.render(card, template: "post-card")
                            markdownOut[p] = try templates.render(card, template: "post-card.md")
                        } catch {
                            failures.record(error)
                        }
                    }
                }
            }
        }
        if let error = failures.first { throw error }
        self.html = html
        self.markdown = markdown
    }
}
