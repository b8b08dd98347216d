import Foundation
import FramelabCore

/// The WIDER FACE evaluation kit's ground truth (eval_tools/ground_truth/): MATLAB 5 files
///
///     wider_face_val.mat        event_list{e}, file_list{e}{i} (names without .jpg),
///                               face_bbx_list{e}{i} (n×4: x y w h), and, when present,
///                               blur/expression/illumination/invalid/occlusion/pose_label_list{e}{i}
///     wider_{easy,medium,hard}_val.mat   gt_list{e}{i}: 1-based indices of the faces the
///                               subset keeps (every other face of the image is ignored in it)
///
/// Each face carries the subsets that keep it (`GroundTruthFace.widerSubsets`). Faces marked
/// invalid, or with no area, are `ignore` faces for Framelab's own matching, as in the txt
/// annotations. Images are looked for in WIDER_val/images/<event>/<file>.jpg beside the
/// folder, one or two levels up (the kit sits in ROOT/eval_tools/ground_truth); they are
/// needed only to run detectors.
enum WiderKitGroundTruth {
    static let mainFile = "wider_face_val.mat"
    static let subsetFiles: [(file: String, subset: WiderSubsets)] = [
        ("wider_easy_val.mat", .easy), ("wider_medium_val.mat", .medium), ("wider_hard_val.mat", .hard),
    ]
    static let labelNames = ["blur", "expression", "illumination", "invalid", "occlusion", "pose"].map { $0 + "_label_list" }

    /// Whether `folder` holds the kit's ground truth.
    static func isKitFolder(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(mainFile))
    }

    static func load(folder: String) throws -> [AnnotatedImage] {
        func file(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        let mainPath = file(mainFile)
        let main = try MAT5File(contentsOf: mainPath)
        let events = try main.variable("event_list").cellElements(mainPath, "event_list")
        let files = try main.variable("file_list").cellElements(mainPath, "file_list")
        let boxes = try main.variable("face_bbx_list").cellElements(mainPath, "face_bbx_list")
        guard files.count == events.count, boxes.count == events.count else {
            throw FramelabError(.badInput, "MAT file '\(mainPath)': event_list has \(events.count) events but file_list "
                                + "\(files.count) and face_bbx_list \(boxes.count)")
        }
        let labels = labelNames.allSatisfy(main.has) ? try labelNames.map { try main.variable($0).cellElements(mainPath, $0) } : nil
        // Each label list has a cell per event, as file_list does (a fuzzed file had fewer: an index out of range).
        if let labels, let k = labels.firstIndex(where: { $0.count != events.count }) {
            throw FramelabError(.badInput, "MAT file '\(mainPath)': event_list has \(events.count) events but "
                                + "\(labelNames[k]) \(labels[k].count)")
        }

        let present = subsetFiles.filter { FileManager.default.fileExists(atPath: file($0.file)) }
        if !present.isEmpty && present.count < subsetFiles.count {
            let missing = subsetFiles.filter { s in !present.contains { $0.file == s.file } }.map(\.file)
            throw FramelabError(.badInput, "WIDER kit folder '\(folder)': \(missing.joined(separator: ", ")) missing "
                                + "(the easy, medium and hard files go together)")
        }
        let subsets = try present.map { s -> (subset: WiderSubsets, path: String, lists: [MAT5Value]) in
            let path = file(s.file)
            let lists = try MAT5File(contentsOf: path).variable("gt_list").cellElements(path, "gt_list")
            guard lists.count == events.count else {
                throw FramelabError(.badInput, "MAT file '\(path)': gt_list has \(lists.count) events, \(mainPath) has \(events.count)")
            }
            return (s.subset, path, lists)
        }

        let images = imagesFolder(folder)
        var out: [AnnotatedImage] = []
        for e in events.indices {
            let event = try events[e].string(mainPath, "event_list{\(e + 1)}")
            let names = try files[e].cellElements(mainPath, "file_list{\(e + 1)}")
            let eventBoxes = try boxes[e].cellElements(mainPath, "face_bbx_list{\(e + 1)}")
            guard eventBoxes.count == names.count else {
                throw FramelabError(.badInput, "MAT file '\(mainPath)': event '\(event)' has \(names.count) files but "
                                    + "\(eventBoxes.count) face lists")
            }
            let eventLabels = try labels?.enumerated().map { k, list in
                try list[e].cellElements(mainPath, "\(labelNames[k]){\(e + 1)}")
            }
            let eventSubsets = try subsets.map { s in
                (s.subset, s.path, try s.lists[e].cellElements(s.path, "gt_list{\(e + 1)}"))
            }
            for i in names.indices {
                let at = "{\(e + 1)}{\(i + 1)}"
                let name = event + "/" + (try names[i].string(mainPath, "file_list" + at)) + ".jpg"
                let rows = try eventBoxes[i].matrixRows(mainPath, "face_bbx_list" + at, columns: 4)
                let flags = try eventLabels.map { lists in
                    try flagRows(lists.enumerated().map { k, l in
                        guard i < l.count else {
                            throw FramelabError(.badInput, "MAT file '\(mainPath)': \(labelNames[k])\(at) is missing")
                        }
                        return try l[i].vector(mainPath, labelNames[k] + at)
                    }, faces: rows.count, mainPath, at)
                }
                var membership = [WiderSubsets](repeating: [], count: rows.count)
                for (subset, path, lists) in eventSubsets {
                    guard i < lists.count else {
                        throw FramelabError(.badInput, "MAT file '\(path)': gt_list\(at) is missing (\(event) has \(names.count) images)")
                    }
                    for v in try lists[i].vector(path, "gt_list" + at) {
                        guard let k = Int(exactly: v), k >= 1, k <= rows.count else {
                            throw FramelabError(.badInput, "MAT file '\(path)': gt_list\(at) names face \(v) of an image "
                                                + "with \(rows.count) faces (\(name))")
                        }
                        membership[k - 1].insert(subset)
                    }
                }
                let faces = rows.enumerated().map { k, v -> GroundTruthFace in
                    let f = flags?[k]
                    return GroundTruthFace(box: FaceBox(x: v[0], y: v[1], width: v[2], height: v[3]),
                                           ignore: (f?.invalid ?? 0) != 0 || v[2] <= 0 || v[3] <= 0, wider: f,
                                           widerSubsets: subsets.isEmpty ? nil : membership[k])
                }
                out.append(AnnotatedImage(path: (images as NSString).appendingPathComponent(name), name: name, faces: faces))
            }
        }
        return out
    }

    /// Each face's six attribute flags from the six label vectors of one image.
    private static func flagRows(_ vectors: [[Double]], faces: Int, _ file: String, _ at: String) throws -> [WiderFlags] {
        for (k, v) in vectors.enumerated() where v.count != faces {
            throw FramelabError(.badInput, "MAT file '\(file)': \(labelNames[k])\(at) has \(v.count) values for \(faces) faces")
        }
        return try (0..<faces).map { f in
            let n = try vectors.enumerated().map { k, v -> Int in
                guard let i = Int(exactly: v[f]) else {
                    throw FramelabError(.badInput, "MAT file '\(file)': \(labelNames[k])\(at) holds \(v[f]), not an integer")
                }
                return i
            }
            return WiderFlags(blur: n[0], expression: n[1], illumination: n[2], invalid: n[3], occlusion: n[4], pose: n[5])
        }
    }

    /// WIDER_val/images inside the folder, beside it, or two levels up; the one beside it
    /// when none exists (images are then reported missing only if a detector needs them).
    static func imagesFolder(_ folder: String) -> String {
        let candidates = [folder, (folder as NSString).deletingLastPathComponent,
                          ((folder as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent]
            .map { ($0 as NSString).appendingPathComponent("WIDER_val/images") }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[1]
    }
}
