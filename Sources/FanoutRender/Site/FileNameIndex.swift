import FanoutCore

/// Finds the user or post a file name made by ``SafeFileName`` may stand for, without making every name up front:
/// `serve` answers its first page once the site is loaded (docs/serve.md), and making 1,000,000 post
/// file names and a dictionary of them took longer than the rest of the index.
///
/// A plain name is its key, found in the export's key table. A name with a hash (`slug~1a2b3c4d5e6f`) is found by
/// the hash's number, kept for the keys that get one. Either way the result is a candidate: ``SitePages`` accepts
/// it only when its page's path is exactly the path asked for.
struct FileNameIndex: Sendable {
    /// By the number after `~`: the first item whose key's name carries it, and the others on a collision.
    private let hashed: [UInt64: Int32]
    private let collided: [UInt64: [Int32]]

    /// An index of `items`, whose keys `key` gives.
    init(_ items: [Int], dataset: Dataset, key: (Int) -> KeyID) {
        var hashed: [UInt64: Int32] = [:]
        var collided: [UInt64: [Int32]] = [:]
        hashed.reserveCapacity(items.count)
        for item in items {
            // From the key table's bytes, which are the key's UTF-8, without making a string of each.
            guard
                let hash = dataset.keys.withBytes(
                    key(item),
                    { bytes in
                        SafeFileName.isPlain(utf8: bytes) ? nil : SafeFileName.hashValue(bytes)
                    })
            else { continue }
            if let first = hashed.updateValue(Int32(item), forKey: hash) {
                // Not the first with this number: the first stays, this one goes with the others.
                hashed[hash] = first
                collided[hash, default: []].append(Int32(item))
            }
        }
        self.hashed = hashed
        self.collided = collided
    }

    /// The items `name` may stand for; `lookUp` finds an item by its key (a plain name is its key).
    func candidates(_ name: Substring, dataset: Dataset, lookUp: (KeyID) -> Int?) -> [Int] {
        if let hash = SafeFileName.hashValue(ofName: name) {
            return ((hashed[hash].map { [$0] } ?? []) + collided[hash, default: []]).map { Int($0) }
        }
        return dataset.keyID(String(name)).flatMap(lookUp).map { [$0] } ?? []
    }
}
