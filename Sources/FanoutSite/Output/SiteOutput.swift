import FanoutCore
import FanoutLocked
import FanoutOutput
import FanoutTemplates
import Foundation

/// The site's folder being written (docs/site.md "Rebuilds, progress and timings"). A first build, or a forced one,
/// writes every page into a ``StagedFolder`` that replaces the previous folder whole. A rebuild over a folder with a
/// manifest renders only the pages whose input key changed, stages only the files whose content changed, and updates
/// the folder in place (``StagedFolder/commitInPlace(_:)``): pages whose input is unchanged are carried over without
/// being touched at all.
public struct SiteOutput: Sendable {
    /// What a build did.
    public struct Summary: Sendable, Equatable {
        /// Pages rendered, because their input changed, they are new, or the build was forced.
        public var rendered: Int
        /// Files written: rendered pages whose content is new or changed. The other rendered pages came out as
        /// they were, and their previous file was kept.
        public var written: [String]
        /// Pages not rendered: their input key is the previous build's, so their previous file was kept.
        public var carriedOver: Int
        /// Files of the previous build that this one does not have, deleted.
        public var deleted: [String]
        /// Post cards rendered, and read from the previous build's card store instead (``CardStore``).
        public var cardsRendered = 0
        public var cardsReused = 0
        /// Feed entries (a post as feeds show it) rendered, and read from the card store instead.
        public var feedEntriesRendered = 0
        public var feedEntriesReused = 0
        /// The index pages' lists of users (``FragmentCache``) rendered, and read from the card store instead.
        public var userListsRendered = 0
        public var userListsReused = 0
        /// How long each part of the build took (``SiteBuilder/build(into:force:progress:)`` fills it in).
        public var phases: [BuildPhase] = []
        /// How long each page rendered took, when the builder records it (``SiteBuilder/recordsPageTimes``).
        public var pageTimes: [PageTime] = []

        /// Rendered pages whose content came out as it was.
        public var unchanged: Int { rendered - written.count }
    }

    /// What some of a build's pages came to, gathered by one thread and merged (``merge(_:)``).
    package struct Log: Sendable {
        /// The previous build's entries carried over, by their place in its manifest.
        fileprivate var carried: [Int] = []
        /// Pages rendered: their path, their entry, and whether the file was written.
        fileprivate var rendered: [(path: String, entry: BuildManifest.Entry, written: Bool)] = []

        package init() {}

        package mutating func merge(_ other: Log) {
            carried += other.carried
            rendered += other.rendered
        }
    }

    /// The folder being written.
    package let folder: StagedFolder
    /// Where the builds of the folder keep their manifest and card store (``SiteCache``), and its staging folder.
    let cache: SiteCache
    private let cacheFolder: StagedFolder
    /// What the previous build wrote, when Fanout made it; empty when forced.
    private let previous: BuildManifest
    /// Whether the previous build is updated in place rather than replaced whole: when it has a manifest and the
    /// build is not forced.
    private let inPlace: Bool
    /// The previous build's folder, open, for looking at its files by their paths inside it.
    private let previousFolder: OpenFolder?
    /// The post cards the previous build kept (``CardStore``); empty when forced or not given.
    let previousCards: CardStore
    /// For each of the previous manifest's files (by slot), whether one walk of the folder saw it there as a
    /// regular file (``FolderWalk``). A file it did not see is looked at by its path (``stillThere(_:slot:)``).
    private let seen: [Bool]
    /// What an earlier Fanout kept inside the folder, which a rebuild in place deletes (``EarlierSiteState``).
    private let earlier: [String]

    /// The list of the files an in-place update is about to write, moved into the cache before them and deleted
    /// after the new manifest: a run killed in the middle of the update leaves it, and the next build gives those
    /// files the entry ``BuildManifest/Entry/unknown`` (rendering them again, deleting those it no longer makes)
    /// instead of carrying any over on the old manifest's word. Before it, the previous manifest less those files was
    /// written whole for that, a second manifest of every file of the site in each rebuild (docs/performance.md
    /// "Rebuilds").
    static let changingName = "manifest-changing"

    /// Prepares to replace the site at `path`, its cache in `cache` (nil: ``SiteCache/defaultRoot`` beside it);
    /// fails, writing nothing, when `path` or the cache is not Fanout's to replace. `force`: ignore the previous
    /// build, rendering and writing every page.
    package init(path: String, cache: SiteCache? = nil, force: Bool = false) throws(OutputError) {
        let cache = cache ?? SiteCache(output: path)
        try self.init(
            path: path, cards: CardStore(), previous: Previous(path: path, cache: cache, force: force))
    }

    /// `cards`: the card store the previous build left in the cache, as this build read it (``SitePrefetch``);
    /// `previous`: what the previous build left at `path` and in its cache, read before (``Previous``, while the
    /// export was read). The folders are claimed here, after they were read: a folder that is not Fanout's fails as
    /// it would have.
    init(path: String, cards: CardStore, previous build: Previous) throws(OutputError) {
        if let conflict = build.cache.conflict(withOutput: path) {
            throw OutputError(
                path: build.cache.path, message: "the cache of the site \(conflict); nothing was written")
        }
        try build.cache.checkClaim()
        folder = try StagedFolder(path: path, claim: .markedBeside(recorded: build.recorded))
        do throws(OutputError) { cacheFolder = try StagedFolder(path: build.cache.path) } catch {
            folder.abandon()
            throw error
        }
        cache = build.cache
        previous = build.manifest
        inPlace = build.manifest.count > 0
        previousFolder = build.folder
        previousCards = cards
        seen = build.seen
        earlier = inPlace ? EarlierSiteState.found(in: folder.target.path) : []
    }

    /// What the previous build left in the folder and its cache, read without claiming either: whether the cache
    /// describes the folder as it is (``CacheRecord``), its manifest, read, and the folder's files looked for in one
    /// walk of it (``FolderWalk``). It needs only the paths, so a build reads it while the export is read
    /// (``SitePrefetch``); nothing is written. A cache that does not describe the folder is not read: a full build.
    struct Previous: Sendable {
        let cache: SiteCache
        /// Whether the cache describes the folder as it is (``CacheRecord/describes(_:)``): Fanout built it.
        let recorded: Bool
        /// Whether its manifest and cards hold: it describes the folder, and the build is not forced.
        let trusted: Bool
        let manifest: BuildManifest
        fileprivate let folder: OpenFolder?
        let seen: [Bool]

        /// The files a rebuild stopped in the middle of changing, as its list says (``changingName``: a path a line).
        private static func changing(in cache: SiteCache) -> [String] {
            let list = FileBytes.contents(of: cache.file(SiteOutput.changingName)) ?? []
            return list.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Whether the cache describes the folder at `path` as it is, without reading the rest.
        static func describes(path: String, cache: SiteCache) -> Bool {
            let target = URL(fileURLWithPath: path).standardizedFileURL.path
            return CacheRecord.read(in: cache)?.describes(CacheRecord.current(target)) == true
        }

        /// `force`: ignore the previous build (an empty manifest, no walk).
        init(path: String, cache: SiteCache, force: Bool) {
            let target = URL(fileURLWithPath: path).standardizedFileURL
            self.cache = cache
            recorded = Self.describes(path: path, cache: cache)
            trusted = recorded && !force
            let bytes = trusted ? BuildManifest.bytes(in: cache) : nil
            manifest = bytes.map { BuildManifest(bytes: $0, changing: Self.changing(in: cache)) } ?? BuildManifest()
            folder = manifest.count > 0 ? OpenFolder(target.path) : nil
            seen = folder.map { [manifest] in FolderWalk.seen(in: $0.descriptor, of: manifest) } ?? []
        }
    }

    /// Keeps the previous build's `relativePath` when it was made from the same input (`inputKey`) and is still
    /// there; false when the page must be rendered.
    package func carryOver(_ relativePath: String, inputKey: UInt64, log: inout Log) -> Bool {
        carryOver(relativePath, inputKey: inputKey, lookUp: nil, log: &log)
    }

    /// The hash ``carryOver(_:inputKey:lookUp:log:)`` looks `relativePath` up by, asked for before the page's input key
    /// is made, so that the look-up finds its part of the previous manifest in the cache.
    func lookUp(_ relativePath: String) -> UInt64? { inPlace ? previous.lookUp(relativePath) : nil }

    /// ``carryOver(_:inputKey:log:)``, with the hash ``lookUp(_:)`` gave for `relativePath`.
    func carryOver(_ relativePath: String, inputKey: UInt64, lookUp hash: UInt64?, log: inout Log) -> Bool {
        guard inPlace, let slot = previous.slot(of: relativePath, hash: hash),
            previous.entries[slot].inputKey == inputKey,
            stillThere(relativePath, slot: slot)
        else { return false }
        log.carried.append(slot)
        return true
    }

    /// Writes `bytes` (a page's UTF-8 text), rendered from input `inputKey`, to `relativePath`, unless the previous
    /// build's file there has the same content.
    package func write(_ bytes: [UInt8], to relativePath: String, inputKey: UInt64, log: inout Log) throws(OutputError)
    {
        let entry = BuildManifest.Entry(
            inputKey: inputKey, contentHash: bytes.withUnsafeBufferPointer(StableHasher.hash))
        let slot = inPlace ? previous.slot(of: relativePath) : nil
        let same = slot.map { previous.entries[$0].contentHash == entry.contentHash } == true
        let keep = same && stillThere(relativePath, slot: slot)
        if !keep { try write(bytes, to: relativePath) }
        log.rendered.append((relativePath, entry, !keep))
    }

    /// Whether the previous build's file is still in the folder (not deleted by hand since). A file the walk of the
    /// folder saw (``seen``) is; any other is looked at by its path, as every file was before the walk: one
    /// `faccessat` each was a tenth of a rebuild with nothing changed (docs/performance.md "Rebuilds").
    private func stillThere(_ relativePath: String, slot: Int?) -> Bool {
        if let slot, slot < seen.count, seen[slot] { return true }
        // Relative to the open folder: a rebuild looks at every carried file, and the path's walk from the root
        // was most of that look's cost (docs/performance.md "Rebuilds").
        guard let previousFolder else { return access(folder.target.path + "/" + relativePath, F_OK) == 0 }
        return faccessat(previousFolder.descriptor, relativePath, F_OK, 0) == 0
    }

    /// Writes the manifest and puts the finished site in place: the whole folder, or in place of the previous
    /// build's, only the files written and deleted (and nothing at all when nothing changed).
    @discardableResult
    package func commit(_ log: Log) throws(OutputError) -> Summary { try commit(log, cards: nil) }

    /// ``commit(_:)``, with the card store: `cards` are the cards this build rendered and those it keeps of the
    /// previous store (``CardCache/storeContents()``), or nil to leave the store as it is.
    func commit(_ log: Log, cards: CardStoreContents?) throws(OutputError) -> Summary {
        var kept = [Bool](repeating: false, count: previous.count)
        for slot in log.carried { kept[slot] = true }
        var changed = false
        for page in log.rendered {
            guard let slot = previous.slot(of: page.path) else {
                changed = true
                continue
            }
            kept[slot] = true
            changed = changed || previous.entries[slot] != page.entry
        }
        let deleted = (0..<previous.count).filter { !kept[$0] }.map { previous.path($0) }
        let written = log.rendered.filter(\.written).map(\.path)
        var summary = Summary(
            rendered: log.rendered.count, written: written.sorted(), carriedOver: log.carried.count,
            deleted: deleted.sorted())
        summary.cardsRendered = cards?.renderedCards ?? 0
        summary.cardsReused = cards?.read ?? 0
        summary.feedEntriesRendered = cards.map { $0.rendered.count - $0.renderedCards - $0.renderedRows } ?? 0
        summary.userListsRendered = cards?.renderedRows ?? 0
        summary.userListsReused = cards?.rowsRead ?? 0
        summary.feedEntriesReused = cards?.feedEntriesRead ?? 0
        let store = try cards.flatMap { cards throws(OutputError) in
            try CardStoreUpdate(
                rendered: cards.rendered, kept: cards.kept, previous: previousCards, folder: cacheFolder,
                inPlace: inPlace)
        }
        guard inPlace else {
            // The cache first names the folder and describes no build of it, so that a run killed from here on
            // leaves a folder the next build may replace and a cache it does not trust: a full build.
            try writeRecord(.unbuilt(folder.target.path))
            try folder.commit()
            try commitCache(manifestBytes(log), store: store)
            return summary
        }
        guard changed || !written.isEmpty || !deleted.isEmpty || store != nil || !earlier.isEmpty else {
            folder.abandon()
            cacheFolder.abandon()
            return summary
        }
        // The files about to be deleted keep their entries: until each is deleted it is what its entry says, and
        // a run killed before deleting it leaves it for the next build to delete (or, asked for again, to carry
        // over while it is still there).
        try AtomicFile.write(written.map { $0 + "\n" }.joined(), to: cache.file(Self.changingName))
        try folder.commitInPlace(
            written.map { .move(from: $0, to: $0) } + deleted.map { .delete($0) } + earlier.map { .delete($0) })
        try commitCache(manifestBytes(log), store: store)
        return summary
    }

    /// Moves the new manifest and card store into the cache, then the record of the folder as it now is, which
    /// makes the cache describe it (``CacheRecord``), and deletes the list of the files that were changing.
    private func commitCache(_ manifest: [UInt8], store: CardStoreUpdate?) throws(OutputError) {
        let target = folder.target.path
        guard let record = CacheRecord.current(target) else {
            throw OutputError(path: target, message: "the site's folder went missing while it was written")
        }
        var failure: OutputError?
        manifest.withUnsafeBytes { bytes in
            do throws(OutputError) { try cacheFolder.write(bytes, to: BuildManifest.fileName) } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        try cacheFolder.write(record.text, to: CacheRecord.fileName)
        let marked = FileManager.default.fileExists(atPath: cache.file(StagedFolder.markerName))
        try cacheFolder.commitInPlace(
            (marked ? [] : [.move(from: StagedFolder.markerName, to: StagedFolder.markerName)])
                + [.move(from: BuildManifest.fileName, to: BuildManifest.fileName)] + (store?.steps ?? [])
                + [.delete(Self.changingName), .move(from: CacheRecord.fileName, to: CacheRecord.fileName)])
    }

    /// Writes `record` into the cache in place, creating the cache's folder, marked as Fanout's, when it has none.
    private func writeRecord(_ record: CacheRecord) throws(OutputError) {
        if !FileManager.default.fileExists(atPath: cache.file(StagedFolder.markerName)) {
            try AtomicFile.write(
                "Created by fanout: the cache of a site's builds. Deleting it makes the next build a full one.\n",
                to: cache.file(StagedFolder.markerName))
        }
        try AtomicFile.write(record.text, to: cache.file(CacheRecord.fileName))
    }

    /// Writes `bytes` to `relativePath` in the staging folder.
    private func write(_ bytes: [UInt8], to relativePath: String) throws(OutputError) {
        var failure: OutputError?
        bytes.withUnsafeBytes { bytes in
            do throws(OutputError) { try folder.write(bytes, to: relativePath) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The new manifest: the entries carried over and those of the pages rendered. A rebuild renders few of many
    /// pages, so when the previous manifest is in order, the carried entries keep its order (their lines copied from
    /// it) and the rendered ones are merged in, rather than all sorted again.
    private func manifestBytes(_ log: Log) -> [UInt8] {
        var writer = BuildManifest.Writer(capacity: log.carried.count + log.rendered.count)
        guard previous.isSorted else {
            let files =
                log.carried.map { (path: previous.path($0), entry: previous.entries[$0]) }
                + log.rendered.map { (path: $0.path, entry: $0.entry) }
            for file in files.sorted(by: { BuildManifest.precedes($0.path, $1.path) }) {
                writer.append(file.path, file.entry)
            }
            return writer.bytes
        }
        let carried = log.carried.sorted()
        var new = log.rendered.map { (path: $0.path, entry: $0.entry) }
        new.sort { BuildManifest.precedes($0.path, $1.path) }
        var i = 0
        for var page in new {
            page.path.withUTF8 { path in
                while i < carried.count && previous.path(carried[i], precedes: path) {
                    writer.append(carried: carried[i], of: previous)
                    i += 1
                }
            }
            writer.append(page.path, page.entry)
        }
        for slot in carried[i...] { writer.append(carried: slot, of: previous) }
        return writer.bytes
    }

    /// Deletes the staging folders after a failure; the previous site and its cache are untouched.
    package func abandon() {
        folder.abandon()
        cacheFolder.abandon()
    }
}

/// A folder held open, closed when the value goes.
private final class OpenFolder: Sendable {
    let descriptor: Int32

    init?(_ path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY)
        if descriptor < 0 { return nil }
    }

    deinit { close(descriptor) }
}

/// One walk of a site's folder, reading each folder's entries once (`getdents`), instead of one look at each file by
/// its path: which of a manifest's files it has as regular files. The walk follows no symbolic link; a file it does not
/// see as a regular file (a link, an entry of unknown type, one in a linked or hidden folder, one deleted) is left for a
/// look by its path, so what it says of a file is what that look would say, only cheaper.
enum FolderWalk {
    /// Whether each of `manifest`'s files (by slot) is a regular file in the folder open as `descriptor`.
    static func seen(in descriptor: Int32, of manifest: BuildManifest) -> [Bool] {
        var seen = [Bool](repeating: false, count: manifest.count)
        guard manifest.count > 0 else { return seen }
        // The folders, walked breadth first until there are enough to share among the cores, then each one's tree
        // on a core of its own.
        var folders = [""]
        while !folders.isEmpty && folders.count < 64 {
            var next: [String] = []
            for prefix in folders {
                let found = list(prefix, in: descriptor, manifest: manifest, recurse: false)
                for slot in found.slots { seen[slot] = true }
                next += found.folders
            }
            folders = next
        }
        let results = Locked([Int]())
        let trees = folders
        DispatchQueue.concurrentPerform(iterations: trees.count) { i in
            let found = list(trees[i], in: descriptor, manifest: manifest, recurse: true)
            results.withLock { $0 += found.slots }
        }
        for slot in results.withLock({ $0 }) { seen[slot] = true }
        return seen
    }

    /// The manifest's slots of the regular files in folder `prefix` (`""`, or a relative path ending in `/`), and
    /// its subfolders (each ending in `/`), or, with `recurse`, those of its whole tree and no folders.
    private static func list(_ prefix: String, in descriptor: Int32, manifest: BuildManifest, recurse: Bool) -> (
        slots: [Int], folders: [String]
    ) {
        var slots: [Int] = []
        var folders: [String] = []
        var stack = [prefix]
        while let folder = stack.popLast() {
            let fd = openat(
                descriptor, folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            guard let dir = fdopendir(fd) else {
                close(fd)
                continue
            }
            // The folder's path, then each entry's name after it: looked up as bytes, without a string per file.
            var path = Array(folder.utf8)
            let prefix = path.count
            while let entry = readdir(dir) {
                let type = entry.pointee.d_type
                guard type == UInt8(DT_DIR) || type == UInt8(DT_REG) else { continue }
                path.removeSubrange(prefix...)
                withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    let name = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                    path.append(contentsOf: UnsafeRawBufferPointer(start: name, count: strlen(name)))
                }
                if type == UInt8(DT_DIR) {
                    // Hidden folders (`.`, `..`, a `.git` kept in the folder) hold no page of Fanout's names; a
                    // file in one would be looked at by its path.
                    if path.count == prefix || path[prefix] == UInt8(ascii: ".") { continue }
                    let sub = String(decoding: path, as: UTF8.self) + "/"
                    if recurse { stack.append(sub) } else { folders.append(sub) }
                } else if let slot = path.withUnsafeBufferPointer({ manifest.slot(ofBytes: $0) }) {
                    slots.append(slot)
                }
            }
            closedir(dir)
        }
        return (slots, folders)
    }
}
