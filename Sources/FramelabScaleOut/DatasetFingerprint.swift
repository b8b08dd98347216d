import Foundation
import FramelabCore
import FramelabDatasets

/// A SHA-256 over what an evaluation of a dataset depends on, so shards computed on
/// different machines can prove they evaluated the same thing (docs/scale-out.md).
///
/// It covers, in dataset (annotation) order: the format, the number of images, each image's
/// name inside the dataset (not the folder the dataset sits in), the size in bytes of its
/// file (-1 when missing), and every annotated face exactly as loaded (box, ignore flag,
/// FDDB ellipse, WIDER flags; numbers by their bit patterns). It does not read pixels: two
/// image files of the same size and name with different contents are not told apart.
public enum DatasetFingerprint {
    public static let version = "framelab-dataset-v1"

    public static func compute(_ dataset: FaceDataset) -> String {
        var hash = SHA256()
        hash.update("\(version)\n\(dataset.format.rawValue)\n\(dataset.images.count)\n")
        for image in dataset.images {
            hash.update("image \(image.name)\t\(fileSize(image.path))\t\(image.faces.count)\n")
            for face in image.faces {
                var line = "face " + bits([face.box.x, face.box.y, face.box.width, face.box.height]) + " \(face.ignore ? 1 : 0)"
                if let e = face.ellipse {
                    line += " ellipse " + bits([e.majorRadius, e.minorRadius, e.angle, e.centerX, e.centerY])
                }
                if let w = face.wider {
                    line += " wider \(w.blur) \(w.expression) \(w.illumination) \(w.invalid) \(w.occlusion) \(w.pose)"
                }
                hash.update(line + "\n")
            }
        }
        return hash.hexDigest()
    }

    private static func bits(_ values: [Double]) -> String {
        values.map { String($0.bitPattern, radix: 16) }.joined(separator: " ")
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }
}
