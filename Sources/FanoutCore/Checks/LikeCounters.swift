import FanoutJSON

/// The stored like counters of live posts whose integer value passes `keep`, each with the post's like count (the
/// reading's subject is the post's index).
func likeCounters(in context: CheckContext, _ keep: (Int64) -> Bool, _ body: (CounterReading) -> Void) {
    let dataset = context.dataset, derived = context.derived
    guard dataset.schema.posts?.likeCount != nil else { return }
    for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
        guard let stored = post.storedLikeCount, keep(stored) else { continue }
        body(
            CounterReading(
                subject: p, stored: .number(JSONNumber(stored)), counted: derived.likeCount(post: p), group: post.key))
    }
}

/// The path of the like counter of the post a reading is about.
func likeCounterPath(_ reading: CounterReading, _ context: CheckContext) -> String {
    context.dataset.path(of: context.dataset.posts[reading.subject], field: context.dataset.schema.posts!.likeCount!)
}
