import Dispatch

/// One key space for two exports: the newer export's key ids as they are, and the older export's keys mapped
/// onto them, those the newer one lacks numbered after its keys. Facts of the two exports then compare by id,
/// without a string per fact (docs/diff-and-history.md, "Memory and speed").
struct KeyMapping: Sendable {
    /// The number of keys of the newer export.
    let newCount: Int
    /// For each key id of the older export, its id in the common space.
    private let ids: [KeyID]

    /// Maps `old`'s keys into `new`'s: one lookup per key of the older export, on both cores.
    init(old: KeyTable, new: KeyTable) {
        newCount = new.count
        let count = old.count, newCount = new.count
        let chunks = count < 65_536 ? 1 : 16
        ids = [KeyID](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each chunk writes its own range; lookups only read the tables.
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for id in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                    let found = old.withBytes(KeyID(id)) { new.lookup($0) }
                    (out.baseAddress! + id).initialize(to: found ?? KeyID(newCount + id))
                }
            }
            initialized = count
        }
    }

    /// The number of ids in the common space.
    var keySpace: Int { newCount + ids.count }

    /// The common id of the older export's key `id`; ``noKey`` stays itself.
    @inline(__always) func callAsFunction(_ id: KeyID) -> KeyID { id == noKey ? noKey : ids[Int(id)] }
}
