/// The Python project of `plugins new --lang python`: one element file that imports
/// `framelab_plugin` (the Python bridge provides it) and numpy, and a README. Nothing to build.
extension PluginSkeleton {
    static func python(_ names: PluginSkeletonNames, kind: PluginSkeletonKind) -> PluginSkeleton {
        let source = "\(names.element).py"
        let does = kind == .filter ? PluginSkeletonText.filterDoes : PluginSkeletonText.detectorDoes
        let layout = """
            Files: `\(source)` (the element). Nothing is built: Framelab runs the file in the
            Python it embeds (its Python bridge, built with Framelab by scripts/build-plugins.sh),
            which provides `framelab_plugin` and takes numpy from `$FRAMELAB_PYTHON_VENV`, else the
            activated venv (`$VIRTUAL_ENV`), else the `.venv` of the Framelab checkout.
            """
        return PluginSkeleton(
            files: [(source, kind == .filter ? pythonFilter(names, file: source) : pythonDetector(names, file: source)),
                    ("README.md", readme(names: names, kind: kind, language: "Python", does: does, build: "",
                                         library: source, layout: layout))],
            copies: [], buildCommand: "", library: source)
    }

    private static func pythonHeader(_ n: PluginSkeletonNames, kind: PluginSkeletonKind, file: String) -> String {
        """
        \"\"\"\(n.element): a Framelab \(kind.rawValue) element in Python, written by `framelab plugins new`.

        Check and run it (nothing to build):
            framelab plugins check \(file)
            framelab run --plugin-path . --source synthetic:640x480@30 --frames 90 --\(kind.rawValue) \(n.element)

        Frames arrive as numpy arrays viewing Framelab's memory (no copy), valid during the call only:
        (height, width, channels) uint8 for bgr8/bgra8, (height, width) uint8 for gray8. `params` holds
        the declared parameters' values, already checked against their type and range.
        See docs/plugins.md, "Elements in Python".
        \"\"\"

        import numpy as np

        import framelab_plugin as fl


        """
    }

    private static func pythonFilter(_ n: PluginSkeletonNames, file: String) -> String {
        pythonHeader(n, kind: .filter, file: file) + """
            @fl.filter("\(n.element)", version="0.1.0",
                       description="adds an offset to every colour channel (brighter or darker), alpha kept",
                       formats=("gray8", "bgr8", "bgra8"),
                       params=[fl.Int("offset", -255, 255, 40, "added to every colour channel, clamped to 0..255")])
            def process(frame, out, params):
                # Write every sample of `out` (the host's output image, same size and format).
                shifted = frame.astype(np.int16) + params["offset"]
                np.clip(shifted, 0, 255, out=shifted)
                out[...] = shifted
                if frame.ndim == 3 and frame.shape[2] == 4:
                    out[:, :, 3] = frame[:, :, 3]  # alpha stays

            """
    }

    private static func pythonDetector(_ n: PluginSkeletonNames, file: String) -> String {
        pythonHeader(n, kind: .detector, file: file) + """
            @fl.detector("\(n.element)", version="0.1.0",
                         description="one centred square box scored by its mean brightness (a skeleton to replace)",
                         formats=("gray8",),
                         params=[fl.Float("size", 0.05, 1, 0.5, "the box's side as a share of the shorter image side")])
            def detect(frame, params):
                # The host converts colour frames to gray8, the one format declared above.
                # Return boxes: (x, y, width, height, score) each.
                h, w = frame.shape
                side = max(1, int(params["size"] * min(w, h)))
                left, top = (w - side) // 2, (h - side) // 2
                score = float(frame[top:top + side, left:left + side].mean()) / 255
                return [(left, top, side, side, score)]

            """
    }
}
