extension ImageCodec {
    /// The width and height the header of the image file at `path` declares, read without
    /// decoding (PNG, JPEG, BMP, WebP, PNM); nil when the file cannot be opened or its
    /// format's header is not one Framelab reads.
    public static func declaredSize(ofFile path: String) -> (width: Int, height: Int)? {
        ImageHeader.withFileReader(path) { ImageHeader.size($0) } ?? nil
    }
}
