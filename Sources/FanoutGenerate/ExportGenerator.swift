import FanoutOutput

/// Deterministic Makestagram export generator.
///
/// Produces a Firebase Realtime Database JSON export with the root keys
/// `followers`, `following`, `postLikes`, `posts`, `timeline` and `users`
/// (in that, sorted, order; every nested object's keys are sorted too), compact
/// with no whitespace. Without defects the export is fully consistent:
/// `like_count` equals the number of likers, poster copies match `users`,
/// `following`/`followers` mirror each other, and `timeline/<U>` holds exactly
/// U's own posts plus every post of the users U follows. Empty objects are
/// omitted below the root, as Firebase does; the six root keys are always
/// present.
///
/// The same `Options` give byte-identical output on every run and platform:
/// the generator uses its own PRNG (xoshiro256**), only exactly rounded
/// floating-point operations, and emits in index order, never in hash order.
///
/// Sizes and times measured with the default `Tuning` (seed 1, no defects,
/// release build, Swift 6.3.1, Linux x86_64, 2-core VM):
///
/// | users   | bytes                 | timeline entries | to a file | null sink | peak RSS |
/// |---------|-----------------------|------------------|-----------|-----------|----------|
/// | 20,000  | 109,971,588 (110 MB)  | 727,352          | 0.47 s    | 0.3–0.4 s | 30 MB    |
/// | 200,000 | 1,102,427,870 (1.10 GB) | 7,313,882      | 6.2–6.3 s | 5.3–6.6 s | 122 MB   |
///
/// At 20,000 users: 4.29 posts/user, 7.64 follows/user, 5.02 likes/post,
/// max 1,564 followers. Seeds 2–5 gave 104–109 MB at 20,000 users (the
/// most-followed users' post counts move the timeline size). Tune in `Tuning`.
public struct ExportGenerator: Sendable {
    public struct Options: Sendable {
        public var users: Int
        public var seed: UInt64
        /// Number of defects to inject, round-robin over `ExportGenerator.defectKinds`.
        public var defects: Int

        public init(users: Int, seed: UInt64 = 1, defects: Int = 0) {
            self.users = users
            self.seed = seed
            self.defects = defects
        }
    }

    /// One injected inconsistency.
    public struct Defect: Sendable, Equatable {
        /// One of `ExportGenerator.defectKinds`.
        public let kind: String
        /// Database paths (slash-separated, no leading slash) where the export
        /// breaks a rule; a checker should report exactly these. Currently one
        /// path per defect:
        /// - `like-count-mismatch`, `like-count-negative`: `posts/<uid>/<key>/like_count`
        /// - `poster-copy-stale`: `posts/<uid>/<key>/poster/username`
        /// - `like-unknown-user`: `postLikes/<key>/<unknown uid>` (it replaces a
        ///   real like, so `like_count` still equals the number of entries)
        /// - `like-unknown-post`: `postLikes/<unknown key>`
        /// - `follow-mirror-missing`: the removed side, `following/<a>/<b>` or
        ///   `followers/<b>/<a>` (b has no posts, so timelines stay right
        ///   whichever side a checker trusts)
        /// - `timeline-missing`, `timeline-stale`, `timeline-unknown-post`: `timeline/<uid>/<key>`
        /// - `timeline-poster`: `timeline/<uid>/<key>/poster_uid`
        public let paths: [String]

        package init(kind: String, paths: [String]) {
            self.kind = kind
            self.paths = paths
        }
    }

    public let options: Options

    public init(_ options: Options) {
        precondition(options.users >= 0, "users must be >= 0")
        precondition(options.defects >= 0, "defects must be >= 0")
        self.options = options
    }

    /// Streams the export to `sink` in chunks (~1 MB buffered), never holding
    /// the whole text in memory. Returns the injected defects.
    ///
    /// The buffer passed to `sink` is only valid during the call.
    public func write(to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows -> [Defect] {
        let model = Model(users: options.users, seed: options.seed)
        var injector = DefectInjector(model: model, seed: options.seed)
        injector.inject(options.defects)
        var emitter = Emitter(model: model, edits: injector.edits)
        while !emitter.done {
            emitter.fill(limit: Tuning.chunkSize)
            if emitter.out.count > 0 {
                try sink(emitter.out.bytes)
                emitter.out.count = 0
            }
        }
        return injector.defects
    }

    /// Streams the export into the file at `path` through Fanout's one atomic writer (``AtomicFile``): a temporary
    /// beside it, renamed into place when complete, so a failed run leaves what was there; a device or pipe is
    /// written in place. Returns the injected defects.
    public func write(toFile path: String) throws -> [Defect] {
        let file = try AtomicFile(path: path)
        do {
            let defects = try write { chunk in try file.append(chunk) }
            try file.commit()
            return defects
        } catch {
            file.abandon()
            throw error
        }
    }
}
