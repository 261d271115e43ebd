import Foundation

/// Where outputs are written before they are complete: a hidden sibling of the final path, named after it and
/// after this process (`.report.json.fanout-tmp-4242`), so that a reader never sees a half-written output under
/// the final name, and two runs never write into each other's temporary files.
///
/// The process id in the name is what makes a temporary left by a killed run recognizable as stale: its process
/// is gone (see ``TemporarySweep``).
enum TemporaryName {
    /// What a temporary sibling is for.
    enum Purpose: String, CaseIterable {
        /// The output being written.
        case tmp
        /// The previous output, moved aside while the new one takes its place.
        case old
        /// An output being deleted (a staging folder renamed away so that no writer can add to it).
        case del
    }

    /// A temporary sibling's name taken apart: `.NAME.fanout-PURPOSE-PID`.
    struct Parsed: Equatable {
        /// The final output's name.
        let name: String
        let purpose: Purpose
        let pid: pid_t
    }

    /// This process's id, in every name it makes.
    static let pid = ProcessInfo.processInfo.processIdentifier

    /// The temporary sibling of `url` for `purpose`.
    static func sibling(of url: URL, _ purpose: Purpose = .tmp) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(name(of: url.lastPathComponent, purpose, pid: pid))
    }

    /// `.NAME.fanout-PURPOSE-PID`.
    static func name(of name: String, _ purpose: Purpose, pid: pid_t) -> String {
        ".\(name).fanout-\(purpose.rawValue)-\(pid)"
    }

    /// The parts of `fileName` when it is a temporary sibling's name, else nil.
    static func parse(_ fileName: String) -> Parsed? {
        guard fileName.hasPrefix("."), let dash = fileName.lastIndex(of: "-"),
            let pid = pid_t(fileName[fileName.index(after: dash)...]), pid > 0
        else { return nil }
        let head = fileName[fileName.index(after: fileName.startIndex)..<dash]
        for purpose in Purpose.allCases {
            let marker = ".fanout-\(purpose.rawValue)"
            guard head.hasSuffix(marker) else { continue }
            let name = String(head.dropLast(marker.count))
            return name.isEmpty ? nil : Parsed(name: name, purpose: purpose, pid: pid)
        }
        return nil
    }

    /// The text of the current `errno`.
    static var lastError: String { String(cString: strerror(errno)) }
}
