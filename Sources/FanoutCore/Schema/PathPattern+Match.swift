extension PathPattern {
    /// The captures of a concrete database path that starts with this pattern (`posts/u1/-Kx/like_count`
    /// against `posts/{poster}/{post}` gives poster `u1`, post `-Kx`); nil when its literals differ or it is
    /// shorter. The inverse of ``render(_:)``, for naming what a finding's path is about.
    package func captures(in path: [Substring]) -> [(name: String, key: Substring)]? {
        guard path.count >= segments.count else { return nil }
        var found: [(name: String, key: Substring)] = []
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let text): if part != text { return nil }
            case .capture(let name): found.append((name, part))
            }
        }
        return found
    }
}
