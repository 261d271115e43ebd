/// Facts about deflate streams (gzip files and zip entries) that bound what a damaged header may claim.
enum Deflate {
    /// Deflate's largest compression ratio is about 1032:1, so a stated decompressed size beyond
    /// 1032 × the compressed size cannot be true and is not reserved up front.
    static let largestRatio = 1032
}
