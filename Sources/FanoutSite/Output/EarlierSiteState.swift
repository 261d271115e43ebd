import FanoutOutput
import Foundation

/// What Fanout kept inside a site's folder before it kept its cache outside (``SiteCache``): the manifest, the list
/// of the files a rebuild was changing, the card store and the folder's marker. Deploying the folder deployed them
/// too. A build over such a folder has no cache yet, so it builds in full and the new folder, replacing the old
/// whole, holds none of them; a rebuild in place that finds some (put back by hand, or by an earlier Fanout)
/// deletes them (docs/site.md "Rebuilds, progress and timings").
enum EarlierSiteState {
    static let files = [".fanout-manifest", ".fanout-manifest-changing", StagedFolder.markerName]
    static let cardFolder = ".fanout-cards"

    /// Those in the folder at `target`, as paths inside it.
    static func found(in target: String) -> [String] {
        let cards = (try? FileManager.default.contentsOfDirectory(atPath: target + "/" + cardFolder)) ?? []
        return files.filter { access(target + "/" + $0, F_OK) == 0 } + cards.sorted().map { "\(cardFolder)/\($0)" }
    }
}
