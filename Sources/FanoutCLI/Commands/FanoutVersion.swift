import CBuildInfo
import Foundation

/// What `fanout --version` prints: the version of the repository's VERSION file and the commit it was built from.
enum FanoutVersion {
    /// The repository's VERSION file, compiled in by CBuildInfo.
    static let number = String(cString: fanout_build_version()).trimmingCharacters(in: .whitespacesAndNewlines)

    /// `make dist`'s commit, "unknown" for a build without it.
    static let commit = String(cString: fanout_build_commit())

    static var description: String { "fanout \(number) (commit \(commit))" }
}
