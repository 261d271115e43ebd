import FanoutCore
import FanoutTemplates

/// Finds the user or post a file name made by ``SafeFileName`` stands for, and checks, once a build (and once a
/// `serve` load), that no two of them got one name.
///
/// An escaped name is read back into its key (``SafeFileName/key(ofName:)``), found in the export's key table:
/// `serve` answers its first page once the site is loaded (docs/serve.md), and making 1,000,000 post file names and
/// a dictionary of them took longer than the rest of the index. Escaped names cannot collide. A hashed name
/// (`slug~~…`, only for keys too long to escape) is found in a table of the keys that have one, made here; two
/// keys with one hashed name (a SHA-256 collision) are an error naming both, never one page written over the
/// other. Either way the result is a candidate: ``SitePages`` accepts it only when its page's path is exactly the
/// path asked for.
struct FileNameIndex: Sendable {
    /// The hashed names, each with its item.
    private let hashed: [String: Int32]

    /// An index of `items` (distinct users or posts, `kind` in messages), whose keys `key` gives. `digest` is
    /// SHA-256 but in tests, which give one that collides.
    init(
        _ items: [Int], dataset: Dataset, kind: String,
        digest: (UnsafeRawBufferPointer) -> [UInt8] = SafeFileName.sha256, key: (Int) -> KeyID
    ) throws(RenderError) {
        var hashed: [String: Int32] = [:]
        for item in items {
            // From the key table's bytes, which are the key's UTF-8, without making a string of each.
            guard
                let name = dataset.keys.withBytes(
                    key(item),
                    { bytes in SafeFileName.isHashed(utf8: bytes) ? SafeFileName.hashed(bytes, digest: digest) : nil })
            else { continue }
            if let first = hashed.updateValue(Int32(item), forKey: name) {
                throw .sameFileName(
                    name: name, kind: kind, first: dataset.key(key(Int(first))), second: dataset.key(key(item)))
            }
        }
        self.hashed = hashed
    }

    /// The items `name` may stand for; `lookUp` finds an item by its key (an escaped name is its key).
    func candidates(_ name: Substring, dataset: Dataset, lookUp: (KeyID) -> Int?) -> [Int] {
        if SafeFileName.isHashedName(name) { return hashed[String(name)].map { [Int($0)] } ?? [] }
        return SafeFileName.key(ofName: name).flatMap(dataset.keyID).flatMap(lookUp).map { [$0] } ?? []
    }
}
