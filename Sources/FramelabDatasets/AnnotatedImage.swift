import Foundation
import FramelabCore

/// A face box in image pixels as annotations give it (top-left corner and size).
public struct FaceBox: Sendable, Equatable, Hashable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// FDDB's elliptical face region (radii, angle in radians, centre).
public struct FaceEllipse: Sendable, Equatable {
    public var majorRadius, minorRadius, angle, centerX, centerY: Double

    public init(majorRadius: Double, minorRadius: Double, angle: Double, centerX: Double, centerY: Double) {
        self.majorRadius = majorRadius; self.minorRadius = minorRadius; self.angle = angle
        self.centerX = centerX; self.centerY = centerY
    }

    /// The axis-aligned box that encloses the rotated ellipse.
    public var boundingBox: FaceBox {
        let c = cos(angle), s = sin(angle)
        // Half extents of an ellipse with semi-axes a (along angle) and b.
        let hx = ((majorRadius * c) * (majorRadius * c) + (minorRadius * s) * (minorRadius * s)).squareRoot()
        let hy = ((majorRadius * s) * (majorRadius * s) + (minorRadius * c) * (minorRadius * c)).squareRoot()
        return FaceBox(x: centerX - hx, y: centerY - hy, width: 2 * hx, height: 2 * hy)
    }
}

/// WIDER FACE's per-face attribute flags, kept as the annotation gives them.
public struct WiderFlags: Sendable, Equatable {
    /// 0 clear, 1 normal blur, 2 heavy blur.
    public var blur: Int
    /// 0 typical, 1 exaggerated expression.
    public var expression: Int
    /// 0 normal, 1 extreme illumination.
    public var illumination: Int
    /// 1: the annotators marked the face invalid.
    public var invalid: Int
    /// 0 none, 1 partial, 2 heavy occlusion.
    public var occlusion: Int
    /// 0 typical, 1 atypical pose.
    public var pose: Int

    /// Each flag's name and values, in the annotation's column order (WIDER FACE's readme).
    public static let ranges: [(name: String, range: ClosedRange<Int>)] = [
        ("blur", 0...2), ("expression", 0...1), ("illumination", 0...1), ("invalid", 0...1), ("occlusion", 0...2), ("pose", 0...1),
    ]

    public init(blur: Int, expression: Int, illumination: Int, invalid: Int, occlusion: Int, pose: Int) {
        self.blur = blur; self.expression = expression; self.illumination = illumination
        self.invalid = invalid; self.occlusion = occlusion; self.pose = pose
    }
}

/// The WIDER FACE evaluation subsets a face belongs to (the kit's `wider_{easy,medium,hard}_val.mat`).
public struct WiderSubsets: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let easy = WiderSubsets(rawValue: 1)
    public static let medium = WiderSubsets(rawValue: 2)
    public static let hard = WiderSubsets(rawValue: 4)
}

/// One annotated face. `ignore` faces (WIDER's invalid ones, dlib's ignore boxes) are
/// neither to be found nor false positives when a detector finds them.
public struct GroundTruthFace: Sendable, Equatable {
    public var box: FaceBox
    public var ignore: Bool
    public var ellipse: FaceEllipse?
    public var wider: WiderFlags?
    /// The WIDER subsets that keep this face, when the ground truth says (the kit's .mat
    /// files); nil for every other source (the txt annotations, other formats).
    public var widerSubsets: WiderSubsets?

    public init(box: FaceBox, ignore: Bool = false, ellipse: FaceEllipse? = nil, wider: WiderFlags? = nil,
                widerSubsets: WiderSubsets? = nil) {
        self.box = box
        self.ignore = ignore
        self.ellipse = ellipse
        self.wider = wider
        self.widerSubsets = widerSubsets
    }
}

/// One image of a dataset and its faces.
public struct AnnotatedImage: Sendable, Equatable {
    /// The file to decode (absolute, or relative to the working directory).
    public var path: String
    /// The image's name inside the dataset (as the annotation file writes it).
    public var name: String
    public var faces: [GroundTruthFace]
    /// The image's id in a COCO annotation file (`coco:` datasets; COCO results name images by it).
    public var cocoID: Int?

    public init(path: String, name: String, faces: [GroundTruthFace], cocoID: Int? = nil) {
        self.path = path
        self.name = name
        self.faces = faces
        self.cocoID = cocoID
    }
}

/// A dataset source attaches each image's annotations to its frame.
extension AnnotatedImage: FrameAnnotation {}
