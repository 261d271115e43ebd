import FanoutJSON

/// Which of an emulator folder's Realtime Database files (one per namespace) holds each of some paths, and where:
/// a path whose first key is a top-level key of a file may be in it; of several such files (a database sharded by
/// user has `users` in each), the one holding most of the path, the first on a tie. Findings are located and
/// repairs split by it, so that both name the same file.
package struct DatabaseFilePlaces {
    /// The files, in the folder's order, and their bytes.
    package let files: [String]
    package let bytes: [ExportBytes]
    /// By index into the paths: the file (index into ``files``) and the line and column there; paths no file has
    /// are absent.
    package let places: [Int: (file: Int, position: TextPosition)]

    /// Places `paths` in `files`; with `firstTakesTheRest`, a path no file has a top-level key of is placed in the
    /// first file (at its start, for a key it lacks).
    package init(_ paths: [String], files: [String], firstTakesTheRest: Bool) throws(InputError) {
        var best: [Int: (file: Int, position: TextPosition, depth: Int)] = [:]
        var read: [ExportBytes] = []
        for (n, file) in files.enumerated() {
            let bytes = try ExportBytes(path: file)
            read.append(bytes)
            let keys = Set(try ExportLoader.databaseKeys(bytes))
            let mine = paths.indices.filter {
                (firstTakesTheRest && n == 0) || keys.contains(String(paths[$0].prefix { $0 != "/" }))
            }
            guard !mine.isEmpty else { continue }
            let found: [String: (position: TextPosition, depth: Int)]
            do {
                found = try PathLocator.placed(mine.map { paths[$0] }, in: bytes.buffer)
            } catch {
                throw InputError.syntax(source: bytes.source, error)
            }
            for i in mine {
                let place = found[paths[i]]!
                if best[i].map({ place.depth > $0.depth }) ?? true { best[i] = (n, place.position, place.depth) }
            }
        }
        self.files = files
        bytes = read
        places = best.mapValues { ($0.file, $0.position) }
    }
}
