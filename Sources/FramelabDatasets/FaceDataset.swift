import FramelabCore

/// The annotation formats Framelab reads.
public enum DatasetFormat: String, Sendable, CaseIterable {
    case fddb
    case wider
    case dlib
    case csv
    case coco

    /// One line of help per format, for --help and errors.
    public var usage: String {
        switch self {
        case .fddb: return "fddb:ROOT — FDDB: ROOT/FDDB-folds/FDDB-fold-NN-ellipseList.txt and ROOT/originalPics/ (or one fold's list file)"
        case .wider: return "wider:ROOT — WIDER FACE: ROOT/images/ and wider_face_split/wider_face_*_bbx_gt.txt beside or inside ROOT (or the gt file); "
            + "or the eval kit's ground_truth folder (wider_face_val.mat, wider_{easy,medium,hard}_val.mat; images in WIDER_val/images nearby)"
        case .dlib: return "dlib:FILE.xml — dlib imglab XML; image paths relative to the XML file"
        case .csv: return "csv:FILE.csv — header image,x,y,width,height[,ignore]; one face per row; paths relative to the file"
        case .coco: return "coco:FILE.json — COCO ground truth (images, annotations, the face category; iscrowd=1 → ignore); paths relative to the file or its images/ folder"
        }
    }
}

/// A loaded dataset: where it came from and its images in annotation order.
public struct FaceDataset: Sendable {
    public let format: DatasetFormat
    public let path: String
    public var images: [AnnotatedImage]
    /// `coco:` datasets: the face category's id (nil: every category counts).
    public var cocoCategory: Int?

    public init(format: DatasetFormat, path: String, images: [AnnotatedImage], cocoCategory: Int? = nil) {
        self.format = format
        self.path = path
        self.images = images
        self.cocoCategory = cocoCategory
    }

    /// `FORMAT:PATH` as the user wrote it.
    public var name: String { "\(format.rawValue):\(path)" }

    /// Faces to find (ignore faces excluded).
    public var faceCount: Int { images.reduce(0) { $0 + $1.faces.filter { !$0.ignore }.count } }

    /// Whether any face says which WIDER subsets keep it (the WIDER kit's ground truth).
    public var hasWiderSubsets: Bool { images.contains { $0.faces.contains { $0.widerSubsets != nil } } }

    /// Loads `FORMAT:PATH` (for example `wider:/data/WIDER_val`, `dlib:faces/testing.xml`).
    public static func load(_ spec: String) throws -> FaceDataset {
        let formats = DatasetFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let colon = spec.firstIndex(of: ":"), let format = DatasetFormat(rawValue: String(spec[..<colon])) else {
            throw FramelabError(.badInput, "dataset '\(spec)': expected FORMAT:PATH with FORMAT one of \(formats)")
        }
        let path = String(spec[spec.index(after: colon)...])
        guard !path.isEmpty else { throw FramelabError(.badInput, "dataset '\(spec)': no path after '\(format.rawValue):'") }
        let images: [AnnotatedImage]
        var category: Int?
        let file = collapsingSlashes(path)  // the loaders take it apart with NSString's path methods
        switch format {
        case .fddb: images = try FDDBLoader.load(file)
        case .wider: images = try WiderFaceLoader.load(file)
        case .dlib: images = try DlibXMLLoader.load(file)
        case .csv: images = try CSVAnnotationLoader.load(file)
        case .coco: (images, category) = try COCOLoader.load(file)
        }
        return FaceDataset(format: format, path: path, images: images, cocoCategory: category)
    }
}

/// "'file' line N: why" — the error every loader raises for a malformed line.
func malformed(_ file: String, _ line: Int, _ why: String) -> FramelabError {
    FramelabError(.badInput, "annotation '\(file)' line \(line): \(why)")
}
