import FanoutCore
import FanoutJSON
import Foundation

/// Sets each finding's ``SourceLocation``: where its first path is in the export, for the reports that show it.
///
/// A Firebase export (plain, gzip or standard input) is read a second time by ``PathLocator``; a Parse export
/// folder has its class files searched for the rows (``ParseRowLocator``); a Cloud Firestore export (a folder or
/// one `output-N` file) has its records read again for the documents' byte offsets (``FirestoreLocator``); a Parse
/// `.zip` gives no locations, since a line inside a compressed member is nothing an editor or code scanning can
/// open.
public enum FindingLocator {
    /// `findings` with their locations in the export at `path` (a file, a Parse export folder or a Firestore
    /// export), read again; locations carry `path` as their file name, as `fanout check`'s reports do (a
    /// folder's files are named from it).
    public static func locate(_ findings: [Finding], inExportAt path: String) throws(InputError) -> [Finding] {
        try locate(findings, path: path, bytes: nil, name: path)
    }

    /// `findings` with their locations.
    ///
    /// - Parameters:
    ///   - path: the export as the user gave it (`-` for standard input).
    ///   - bytes: the export's bytes when the caller kept them (standard input cannot be read twice); when nil,
    ///     the file at `path` is read again.
    ///   - name: the file name a JSON export's locations carry (for standard input, the name reports give it).
    package static func locate(
        _ findings: [Finding], path: String, bytes: ExportBytes?, name: String
    ) throws(InputError) -> [Finding] {
        guard !findings.isEmpty else { return findings }
        if path != "-", try ExportLoader.holdsFirestoreOrEmulatorData(path) {
            return try FirestoreLocator.locate(findings, path: path)
        }
        if path != "-", ExportLoader.isDirectory(path) { return try locateInFolder(findings, folder: path) }
        let export: ExportBytes
        if let bytes { export = bytes } else { export = try ExportBytes(path: path) }
        if !export.wasCompressed, ExportLoader.isZip(export.buffer) { return findings }
        let positions: [String: TextPosition]
        do {
            positions = try PathLocator.locate(findings.map { $0.paths.first ?? "" }, in: export.buffer)
        } catch {
            // The first pass read these bytes without an error, so only a file changed in between gets here.
            throw InputError.syntax(source: export.source, error)
        }
        return findings.map { finding in
            var located = finding
            let position = positions[finding.paths.first ?? ""]!
            located.location = SourceLocation(file: name, line: position.line, column: position.column)
            return located
        }
    }

    /// Findings of a Parse export folder: `Class/<objectId>[/field…]` is looked for in `folder/Class.json`.
    private static func locateInFolder(_ findings: [Finding], folder: String) throws(InputError) -> [Finding] {
        // Per class file, per row, the fields wanted.
        var wanted: [String: [String: Set<String>]] = [:]
        for finding in findings {
            let keys = (finding.paths.first ?? "").split(separator: "/" as Character, omittingEmptySubsequences: false)
                .map(String.init)
            guard keys.count >= 2 else { continue }
            wanted[keys[0], default: [:]][keys[1], default: []].formUnion(keys.count > 2 ? [keys[2]] : [])
        }
        var found: [String: (file: String, positions: [String: TextPosition])] = [:]
        for (className, rows) in wanted {
            let file = (folder as NSString).appendingPathComponent("\(className).json")
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let bytes = try ExportBytes(path: file)
            do {
                found[className] = (file, try ParseRowLocator.locate(rows, in: bytes.buffer))
            } catch {
                throw InputError.syntax(source: bytes.source, error)
            }
        }
        return findings.map { finding in
            var located = finding
            let keys = (finding.paths.first ?? "").split(separator: "/" as Character, omittingEmptySubsequences: false)
                .map(String.init)
            guard keys.count >= 2, let (file, positions) = found[keys[0]] else { return finding }
            let key = keys.count > 2 ? "\(keys[1])/\(keys[2])" : keys[1]
            if let position = positions[key] {
                located.location = SourceLocation(file: file, line: position.line, column: position.column)
            }
            return located
        }
    }
}
