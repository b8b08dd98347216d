import Foundation
import FramelabCore

/// FDDB (Jain and Learned-Miller, 2010): ten folds, each an ellipse list
///
///     2002/08/11/big/img_591        image name, under originalPics/, without .jpg
///     1                              number of faces
///     123.58 85.55 1.27 269.69 161.78  1   major radius, minor radius, angle, centre x, y, 1
///
/// and a fold list (`FDDB-fold-NN.txt`, the names alone). `fddb:ROOT` loads every fold
/// from ROOT/FDDB-folds with images from ROOT/originalPics; `fddb:FILE` loads one fold
/// (its ellipse list, or its fold list whose ellipse list sits beside it).
enum FDDBLoader {
    static func load(_ path: String) throws -> [AnnotatedImage] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw FramelabError(.io, "dataset 'fddb:\(path)': no such file or folder")
        }
        if isDir.boolValue {
            let folds = (path as NSString).appendingPathComponent("FDDB-folds")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folds)) ?? [])
                .filter { $0.hasSuffix("-ellipseList.txt") }.sorted()
            guard !names.isEmpty else {
                throw FramelabError(.badInput, "dataset 'fddb:\(path)': no FDDB-folds/FDDB-fold-NN-ellipseList.txt inside")
            }
            let pics = (path as NSString).appendingPathComponent("originalPics")
            return try names.flatMap { try ellipseList((folds as NSString).appendingPathComponent($0), pictures: pics) }
        }
        // One fold: the folder holding FDDB-folds/ is the root.
        var list = path
        if !path.hasSuffix("-ellipseList.txt") {
            list = (path as NSString).deletingPathExtension + "-ellipseList.txt"
            guard FileManager.default.fileExists(atPath: list) else {
                throw FramelabError(.io, "dataset 'fddb:\(path)': its ellipse list '\(list)' is missing")
            }
        }
        let root = ((list as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        return try ellipseList(list, pictures: (root as NSString).appendingPathComponent("originalPics"))
    }

    static func ellipseList(_ file: String, pictures: String) throws -> [AnnotatedImage] {
        let text = try AnnotationText(path: file)
        var images: [AnnotatedImage] = []
        var i = 0
        while i < text.lines.count {
            let name = text.lines[i].trimmingCharacters(in: .whitespaces)
            if name.isEmpty { i += 1; continue }
            let n = try text.count(i + 1, what: "the number of faces of \(quoted(name))")
            var faces: [GroundTruthFace] = []
            for k in 0..<n {
                let line = i + 2 + k
                guard line < text.lines.count else { throw malformed(file, line + 1, "file ends inside the faces of \(quoted(name))") }
                let v = try text.numbers(line, count: 5...6, what: "'major minor angle x y 1'")
                guard v[0] > 0, v[1] > 0 else { throw malformed(file, line + 1, "ellipse radii must be positive") }
                let e = FaceEllipse(majorRadius: v[0], minorRadius: v[1], angle: v[2], centerX: v[3], centerY: v[4])
                faces.append(GroundTruthFace(box: e.boundingBox, ellipse: e))
            }
            images.append(AnnotatedImage(path: (pictures as NSString).appendingPathComponent(name + ".jpg"),
                                         name: name, faces: faces))
            i += 2 + n
        }
        return images
    }
}
