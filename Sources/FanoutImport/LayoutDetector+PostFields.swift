import FanoutCore
import FanoutJSON

extension LayoutDetector {
    /// How many posts of each candidate layout are looked at.
    static let sampledPosts = 32

    /// The one candidate whose posts have its required fields, for an export whose top-level keys fit several
    /// presets alike (a Firestore app keeps only `users` and `posts`): the first posts under each candidate's
    /// posts pattern are read, and a candidate fits when at least four in five of them hold every field it
    /// requires. Nil when none or more than one fits.
    static func fitByPostFields(_ bytes: ExportBytes, candidates: [Int]) throws(JSONSyntaxError) -> Int? {
        var fitting: [Int] = []
        // Candidates whose posts sit at one place share one reading of them.
        var samples: [String: [Set<String>]?] = [:]
        for index in candidates {
            guard let posts = presets[index].schema.posts, !posts.required.isEmpty,
                let (root, depth) = Self.rootAndDepth(posts.pattern)
            else { continue }
            let place = "\(depth) \(root)"
            if samples[place] == nil { samples[place] = .some(try Self.samplePosts(bytes, root: root, depth: depth)) }
            guard let sample = samples[place] ?? nil else { continue }
            let required = Set(posts.required.compactMap(\.keys.first))
            let holding = sample.filter { required.isSubset(of: $0) }.count
            if !sample.isEmpty, holding * 5 >= sample.count * 4 { fitting.append(index) }
        }
        return fitting.count == 1 ? fitting[0] : nil
    }

    /// `posts/{poster}/{post}`: the root key `posts` and the two levels of keys below it to a post; nil for a
    /// pattern with literals below its root, which sampling does not follow.
    private static func rootAndDepth(_ pattern: PathPattern) -> (String, Int)? {
        guard case .literal(let root)? = pattern.segments.first else { return nil }
        let below = pattern.segments.dropFirst()
        for segment in below { if case .literal = segment { return nil } }
        return below.isEmpty ? nil : (root, below.count)
    }

    /// The member names of the first ``sampledPosts`` nodes `depth` levels under the top-level key `root` (a
    /// node that is not an object has none); nil when the export has no such key.
    private static func samplePosts(_ bytes: ExportBytes, root: String, depth: Int) throws(JSONSyntaxError)
        -> [Set<String>]?
    {
        var reader = JSONReader(bytes.buffer)
        try reader.beginObject()
        while let key = try reader.nextKeyString() {
            guard key == root else {
                try reader.skipValue()
                continue
            }
            var sample: [Set<String>] = []
            try collect(&reader, depth: depth, into: &sample)
            return sample
        }
        return nil
    }

    /// Collects the member names of the nodes `depth` levels below the reader's value, until the sample is full;
    /// the reader is left wherever that happens, as nothing reads on after it.
    private static func collect(_ reader: inout JSONReader, depth: Int, into sample: inout [Set<String>])
        throws(JSONSyntaxError)
    {
        guard try reader.peekKind() == .object else {
            if depth == 0 { sample.append([]) }
            try reader.skipValue()
            return
        }
        try reader.beginObject()
        var names = Set<String>()
        while let key = try reader.nextKeyString() {
            if depth == 0 {
                names.insert(key)
                try reader.skipValue()
            } else {
                try collect(&reader, depth: depth - 1, into: &sample)
                if sample.count == sampledPosts { return }
            }
        }
        if depth == 0 { sample.append(names) }
    }
}
