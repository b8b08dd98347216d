import Foundation
import FramelabDetection

/// The HTML page of `framelab dataset show`: a legend of colours and a grid of the drawn
/// images, each captioned with its name, its faces and what each detector found.
enum ContactSheetHTML {
    static func make(title: String, run: String?, detectors: [String], pages: [DatasetSheet.Page]) -> String {
        var legend = [swatch(DetectionOverlay.truthColor, "ground truth"), swatch(DetectionOverlay.ignoredColor, "ignored")]
        for (k, name) in detectors.enumerated() { legend.append(swatch(DetectionOverlay.color(forDetector: k), name)) }
        let figures = pages.map { page -> String in
            var lines = ["\(escape(page.name))", "\(page.faces) faces\(page.ignored > 0 ? " (+\(page.ignored) ignored)" : "")"]
            for (k, count) in page.found.enumerated() {
                lines.append("\(escape(detectors[k])): \(count.map { "\($0) found" } ?? "failed")")
            }
            let picture = page.file.map { "<a href=\"\($0)\"><img src=\"\($0)\" loading=\"lazy\" alt=\"\(escape(page.name))\"></a>" }
                ?? "<div class=\"error\">\(escape(page.error ?? "not drawn"))</div>"
            return "<figure>\(picture)<figcaption>\(lines.joined(separator: "<br>"))</figcaption></figure>"
        }
        let heading = escape(title) + (run.map { " — run " + escape($0) } ?? "")
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>\(heading)</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 1.5em; }
        .legend span { display: inline-block; margin-right: 1.2em; }
        .legend i { display: inline-block; width: 1em; height: 1em; vertical-align: -0.15em; margin-right: 0.3em; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 1em; }
        figure { margin: 0; } img { width: 100%; height: auto; border: 1px solid #ccc; }
        .error { color: #b00; padding: 2em 0.5em; border: 1px dashed #b00; }
        figcaption { font-size: 12px; color: #333; word-break: break-all; }
        </style></head><body>
        <h1>\(heading)</h1>
        <p class="legend">\(legend.joined())</p>
        <div class="grid">
        \(figures.joined(separator: "\n"))
        </div></body></html>

        """
    }

    /// A colour square and its meaning; colours are stored B, G, R.
    private static func swatch(_ bgr: [Double], _ label: String) -> String {
        let hex = [bgr[2], bgr[1], bgr[0]].map { String(format: "%02x", Int($0)) }.joined()
        return "<span><i style=\"background:#\(hex)\"></i>\(escape(label))</span>"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
