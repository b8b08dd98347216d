import Foundation
import FramelabCore

/// dlib's imglab XML (as in dlib's examples/faces/testing.xml):
///
///     <dataset><images>
///       <image file='2008_002470.jpg'>
///         <box top='181' left='274' width='52' height='53'/>
///         <box top='..' left='..' width='..' height='..' ignore='1'/>
///       </image>
///     </images></dataset>
///
/// Image paths are relative to the XML file. Part points inside boxes are not used.
enum DlibXMLLoader {
    static func load(_ path: String) throws -> [AnnotatedImage] {
        let root: XMLTree
        do {
            root = try XMLTree.parse(contentsOf: path)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "annotation \(error.message)")
        }
        guard root.name == "dataset", let list = root.child("images") else {
            throw malformed(path, root.line, "expected <dataset><images>…, got <\(root.name)>")
        }
        let folder = (path as NSString).deletingLastPathComponent
        return try list.children.filter { $0.name == "image" }.map { image in
            guard let file = image.attributes["file"], !file.isEmpty else {
                throw malformed(path, image.line, "<image> without a file attribute")
            }
            let faces = try image.children.filter { $0.name == "box" }.map { box -> GroundTruthFace in
                func value(_ key: String) throws -> Double {
                    guard let t = box.attributes[key], let v = Double(t), v.isFinite else {
                        throw malformed(path, box.line, "<box> needs a numeric '\(key)' attribute")
                    }
                    return v
                }
                let b = FaceBox(x: try value("left"), y: try value("top"), width: try value("width"), height: try value("height"))
                guard b.width > 0, b.height > 0 else { throw malformed(path, box.line, "<box> with no area") }
                let ignore = ["1", "true"].contains(box.attributes["ignore"]?.lowercased() ?? "0")
                return GroundTruthFace(box: b, ignore: ignore)
            }
            return AnnotatedImage(path: resolve(file, relativeTo: folder), name: file, faces: faces)
        }
    }
}
