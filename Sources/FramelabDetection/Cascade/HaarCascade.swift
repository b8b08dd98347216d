import FramelabCore

/// A boosted Haar cascade as OpenCV's `CascadeClassifier` stores it (the XML written by
/// opencv_traincascade, `type_id="opencv-cascade-classifier"`, stageType BOOST,
/// featureType HAAR): features, and stages of weak classifiers that are stumps or small
/// trees over those features.
public struct HaarCascade: Sendable {
    /// A weighted rectangle of a feature, in window pixels.
    public struct WeightedRect: Sendable, Equatable {
        public var x, y, width, height: Int
        public var weight: Float
    }

    /// Up to three weighted rectangles; `tilted` features are rotated 45 degrees.
    public struct Feature: Sendable {
        public var rects: [WeightedRect]
        public var tilted: Bool
    }

    /// An internal node: `value < threshold` goes `left`, else `right`. A child index
    /// > 0 is another node of the same tree; <= 0 is leaf number `-index`.
    public struct Node: Sendable {
        public var feature: Int
        public var threshold: Float
        public var left: Int
        public var right: Int
    }

    public struct WeakClassifier: Sendable {
        public var nodes: [Node]
        public var leaves: [Float]
        public var isStump: Bool { nodes.count == 1 && nodes[0].left == 0 && nodes[0].right == -1 }
    }

    public struct Stage: Sendable {
        /// Already lowered by OpenCV's epsilon (1e-5), as OpenCV compares it.
        public var threshold: Float
        public var classifiers: [WeakClassifier]
    }

    public var windowWidth: Int
    public var windowHeight: Int
    public var features: [Feature]
    public var stages: [Stage]
    /// Where it was read from.
    public var path: String

    public var hasTiltedFeatures: Bool { features.contains { $0.tilted } }
    public var isStumpBased: Bool { stages.allSatisfy { $0.classifiers.allSatisfy(\.isStump) } }

    /// OpenCV subtracts this from every stage threshold when it reads a cascade.
    static let stageThresholdEpsilon: Float = 1e-5
}

extension HaarCascade {
    /// Reads an OpenCV cascade XML. A file that is not a Haar cascade in this format is
    /// an error naming the file and what was wrong.
    ///
    /// Integers are read as OpenCV reads them, 32-bit: sums of a few of them (a rectangle's
    /// far edge) cannot overflow, and node indices fit the compiled tables' Int32. Every
    /// rectangle is checked against the window, so compiled offsets stay inside the
    /// integral tables whatever the file says.
    public init(contentsOf path: String) throws {
        func bad(_ why: String) -> FramelabError {
            FramelabError(.badInput, "cascade '\(path)': \(why)")
        }
        func int32(_ text: some StringProtocol) -> Int? { Int32(text).map(Int.init) }
        let root: XMLTree
        do {
            root = try XMLTree.parse(contentsOf: path)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "cascade \(error.message) — not a cascade XML file")
        }
        guard root.name == "opencv_storage" else { throw bad("not an OpenCV cascade (root element <\(root.name)>)") }
        guard let cascade = root.children.first, cascade.name == "cascade" || cascade.attributes["type_id"] != nil else {
            throw bad("not an OpenCV cascade (no <cascade> element)")
        }
        if cascade.attributes["type_id"] == "opencv-haar-classifier" {
            throw bad("old-style Haar cascade format; convert it with OpenCV or use opencv-haar")
        }
        guard cascade.name == "cascade" else { throw bad("not an OpenCV cascade (no <cascade> element)") }
        guard cascade.child("stageType")?.trimmedText == "BOOST" else { throw bad("stageType is not BOOST") }
        let featureType = cascade.child("featureType")?.trimmedText ?? "?"
        guard featureType == "HAAR" else {
            throw bad("featureType is \(quoted(featureType)); the cascade detector evaluates HAAR cascades (use opencv-lbp for LBP)")
        }
        guard let w = cascade.child("width").flatMap({ int32($0.trimmedText) }),
              let h = cascade.child("height").flatMap({ int32($0.trimmedText) }), w > 2, h > 2 else {
            throw bad("missing or invalid <width>/<height>")
        }
        windowWidth = w
        windowHeight = h
        self.path = path

        guard let featureNodes = cascade.child("features")?.children, !featureNodes.isEmpty else {
            throw bad("no <features>")
        }
        features = try featureNodes.map { node in
            guard let rectNodes = node.child("rects")?.children, (1...3).contains(rectNodes.count) else {
                throw bad("feature at line \(node.line) needs 1 to 3 rects")
            }
            let rects = try rectNodes.map { r -> WeightedRect in
                let v = r.trimmedText.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
                guard v.count == 5, let x = int32(v[0]), let y = int32(v[1]), let rw = int32(v[2]), let rh = int32(v[3]),
                      let weight = Double(v[4].hasSuffix(".") ? v[4] + "0" : v[4]).map(Float.init) else {
                    throw bad("rect at line \(r.line) is not 'x y width height weight'")
                }
                return WeightedRect(x: x, y: y, width: rw, height: rh, weight: weight)
            }
            let tilted = (node.child("tilted").flatMap { Int($0.trimmedText) } ?? 0) != 0
            return Feature(rects: rects, tilted: tilted)
        }

        guard let stageNodes = cascade.child("stages")?.children, !stageNodes.isEmpty else { throw bad("no <stages>") }
        let featureCount = features.count
        stages = try stageNodes.map { s in
            guard let t = s.child("stageThreshold").flatMap({ Double($0.trimmedText) }) else {
                throw bad("stage at line \(s.line) has no stageThreshold")
            }
            guard let weak = s.child("weakClassifiers")?.children, !weak.isEmpty else {
                throw bad("stage at line \(s.line) has no weakClassifiers")
            }
            let classifiers = try weak.map { c -> WeakClassifier in
                let inner = (c.child("internalNodes")?.trimmedText ?? "").split(whereSeparator: \.isWhitespace)
                let leafText = (c.child("leafValues")?.trimmedText ?? "").split(whereSeparator: \.isWhitespace)
                guard !inner.isEmpty, inner.count % 4 == 0 else {
                    throw bad("weak classifier at line \(c.line): internalNodes must be groups of 4 numbers")
                }
                var nodes: [Node] = []
                for i in stride(from: 0, to: inner.count, by: 4) {
                    guard let l = int32(inner[i]), let r = int32(inner[i + 1]), let f = Int(inner[i + 2]),
                          let th = Double(inner[i + 3]), (0..<featureCount).contains(f) else {
                        throw bad("weak classifier at line \(c.line): bad node \(quoted(inner[i..<i + 4].joined(separator: " ")))")
                    }
                    nodes.append(Node(feature: f, threshold: Float(th), left: l, right: r))
                }
                let leaves = try leafText.map { v -> Float in
                    guard let d = Double(v) else { throw bad("weak classifier at line \(c.line): bad leaf \(quoted(v))") }
                    return Float(d)
                }
                guard leaves.count == nodes.count + 1 else {
                    throw bad("weak classifier at line \(c.line): \(nodes.count) nodes need \(nodes.count + 1) leaves")
                }
                for n in nodes where n.left >= nodes.count || n.right >= nodes.count || -n.left >= leaves.count
                    || -n.right >= leaves.count {
                    throw bad("weak classifier at line \(c.line): a node points outside its tree")
                }
                return WeakClassifier(nodes: nodes, leaves: leaves)
            }
            return Stage(threshold: Float(t) - Self.stageThresholdEpsilon, classifiers: classifiers)
        }
        for f in features {
            // A rectangle of no or negative size would put corners left of or above the
            // window (every OpenCV cascade's rectangles have a positive size).
            for r in f.rects where !f.tilted && (r.x < 0 || r.y < 0 || r.x + r.width > w || r.y + r.height > h
                                                  || r.width <= 0 || r.height <= 0) {
                throw bad("a feature rectangle lies outside the \(w)x\(h) window")
            }
            // A 45-degree rectangle spans x − height … x + width and y … y + width + height.
            for r in f.rects where f.tilted && (r.x - r.height < 0 || r.y < 0 || r.x + r.width > w
                                                 || r.y + r.width + r.height > h || r.width < 0 || r.height < 0) {
                throw bad("a tilted feature rectangle lies outside the \(w)x\(h) window")
            }
        }
    }
}
