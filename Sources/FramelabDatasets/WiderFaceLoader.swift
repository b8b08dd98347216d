import Foundation
import FramelabCore

/// WIDER FACE (Yang et al., 2016): `wider_face_{train,val}_bbx_gt.txt`
///
///     0--Parade/0_Parade_marchingband_1_849.jpg    image, under images/
///     1                                             number of faces
///     449 330 122 149 0 0 0 0 0 0                   x y w h blur expression illumination invalid occlusion pose
///
/// (an image with no faces has count 0 and one line of zeros). Flags are kept; faces
/// marked invalid, or with no area, are `ignore` faces.
/// `wider:ROOT` looks for the gt file in ROOT/wider_face_split/, ROOT/../wider_face_split/
/// and ROOT itself (val before train), and for images in ROOT/images/; `wider:FILE` is a gt
/// file whose images are in ../WIDER_val/images (or the split its name says).
/// `wider:KIT` — a folder holding the evaluation kit's wider_face_val.mat (and the easy,
/// medium and hard subset files), or that .mat file — is read by `WiderKitGroundTruth`.
enum WiderFaceLoader {
    static func load(_ path: String) throws -> [AnnotatedImage] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw FramelabError(.io, "dataset 'wider:\(path)': no such file or folder")
        }
        if isDir.boolValue && WiderKitGroundTruth.isKitFolder(path) { return try WiderKitGroundTruth.load(folder: path) }
        if !isDir.boolValue && (path as NSString).lastPathComponent == WiderKitGroundTruth.mainFile {
            return try WiderKitGroundTruth.load(folder: (path as NSString).deletingLastPathComponent)
        }
        let gt: String, images: String
        if isDir.boolValue {
            let parent = (path as NSString).deletingLastPathComponent
            let candidates = [path + "/wider_face_split", parent + "/wider_face_split", path].flatMap { dir in
                ["wider_face_val_bbx_gt.txt", "wider_face_train_bbx_gt.txt"].map { (dir as NSString).appendingPathComponent($0) }
            }
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw FramelabError(.badInput, "dataset 'wider:\(path)': no wider_face_split/wider_face_*_bbx_gt.txt found")
            }
            gt = found
            images = (path as NSString).appendingPathComponent("images")
        } else {
            gt = path
            let split = (path as NSString).lastPathComponent.contains("train") ? "WIDER_train" : "WIDER_val"
            let root = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            images = (root as NSString).appendingPathComponent(split + "/images")
        }
        return try parse(gt, images: images)
    }

    static func parse(_ file: String, images folder: String) throws -> [AnnotatedImage] {
        let text = try AnnotationText(path: file)
        var out: [AnnotatedImage] = []
        var i = 0
        while i < text.lines.count {
            let name = text.lines[i].trimmingCharacters(in: .whitespaces)
            if name.isEmpty { i += 1; continue }
            guard name.contains(".") else { throw malformed(file, i + 1, "expected an image name, got \(quoted(name))") }
            let n = try text.count(i + 1, what: "the number of faces of \(quoted(name))")
            var faces: [GroundTruthFace] = []
            for k in 0..<max(n, 1) {
                let line = i + 2 + k
                guard line < text.lines.count else { throw malformed(file, line + 1, "file ends inside the faces of \(quoted(name))") }
                let v = try text.numbers(line, count: 10...10, what: "'x y w h blur expression illumination invalid occlusion pose'")
                if n == 0 { continue }  // the placeholder line of an image without faces
                let f = try zip(v[4...], WiderFlags.ranges).map { d, flag -> Int in
                    guard let i = Int(exactly: d) else { throw malformed(file, line + 1, "flag '\(d)' is not an integer") }
                    guard flag.range.contains(i) else {
                        throw malformed(file, line + 1, "\(flag.name) flag \(i) is out of range "
                                        + "\(flag.range.lowerBound)...\(flag.range.upperBound)")
                    }
                    return i
                }
                let flags = WiderFlags(blur: f[0], expression: f[1], illumination: f[2],
                                       invalid: f[3], occlusion: f[4], pose: f[5])
                let box = FaceBox(x: v[0], y: v[1], width: v[2], height: v[3])
                faces.append(GroundTruthFace(box: box, ignore: flags.invalid != 0 || v[2] <= 0 || v[3] <= 0, wider: flags))
            }
            out.append(AnnotatedImage(path: (folder as NSString).appendingPathComponent(name), name: name, faces: faces))
            i += 2 + max(n, 1)
        }
        return out
    }
}
