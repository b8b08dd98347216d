import CV4L2

/// One frame size a format offers and the rates at that size.
public struct SizeOffer: Sendable, Codable, Equatable {
    public let width: Int
    public let height: Int
    /// Frames per second offered at this size, fastest first.
    public let rates: [Double]
}

/// One pixel format a device offers, with its sizes.
public struct FormatOffer: Sendable, Codable, Equatable {
    public let fourcc: String
    public let description: String
    public let compressed: Bool
    public let sizes: [SizeOffer]

    public var code: FourCC { FourCC(fourcc) ?? FourCC(rawValue: 0) }
}

extension V4L2Device {
    /// Largest enumeration index tried (guards against a driver that never says EINVAL).
    static let enumerationLimit: UInt32 = 256

    /// Every capture format, size and frame rate the device offers (ENUM_FMT,
    /// ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS). Stepwise ranges are sampled at common sizes.
    public func formatOffers() throws(V4L2CallError) -> [FormatOffer] {
        var offers: [FormatOffer] = []
        for index in 0..<Self.enumerationLimit {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard try enumerate(FL_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &desc) else { break }
            // libv4l2 adds the formats it can convert to (RGB3, BGR3, YU12, …); list only the camera's own.
            if desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0 { continue }
            let code = FourCC(rawValue: desc.pixelformat)
            offers.append(FormatOffer(fourcc: code.description, description: V4L2Capabilities.text(desc.description),
                                      compressed: desc.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                                      sizes: try sizeOffers(code)))
        }
        return offers
    }

    /// Sizes sampled from a stepwise or continuous range (drivers such as vivid report those).
    static let commonSizes: [(Int, Int)] = [(320, 240), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]

    func sizeOffers(_ code: FourCC) throws(V4L2CallError) -> [SizeOffer] {
        var sizes: [SizeOffer] = []
        for index in 0..<Self.enumerationLimit {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = code.rawValue
            guard try enumerate(FL_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size) else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let w = Int(size.discrete.width), h = Int(size.discrete.height)
                sizes.append(SizeOffer(width: w, height: h, rates: try rates(code, width: w, height: h)))
            } else {
                let s = size.stepwise
                for (w, h) in Self.commonSizes
                where (Int(s.min_width)...Int(s.max_width)).contains(w) && (Int(s.min_height)...Int(s.max_height)).contains(h) {
                    sizes.append(SizeOffer(width: w, height: h, rates: try rates(code, width: w, height: h)))
                }
                break
            }
        }
        return sizes
    }

    func rates(_ code: FourCC, width: Int, height: Int) throws(V4L2CallError) -> [Double] {
        var rates: [Double] = []
        for index in 0..<Self.enumerationLimit {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = code.rawValue
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard try enumerate(FL_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval) else { break }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let f = interval.discrete
                if f.numerator > 0 { rates.append(Double(f.denominator) / Double(f.numerator)) }
            } else {
                // A range: offer its two ends (fastest = shortest interval).
                let lo = interval.stepwise.min, hi = interval.stepwise.max
                if lo.numerator > 0 { rates.append(Double(lo.denominator) / Double(lo.numerator)) }
                if hi.numerator > 0 { rates.append(Double(hi.denominator) / Double(hi.numerator)) }
                break
            }
        }
        return rates.sorted(by: >)
    }
}

extension Array where Element == FormatOffer {
    /// "YUYV 640x480@30/15, 320x240@30/15; MJPG …" for messages.
    public var summary: String {
        map { offer in
            let sizes = offer.sizes.map { s in
                "\(s.width)x\(s.height)@" + s.rates.map(formatRate).joined(separator: "/")
            }
            return "\(offer.fourcc) (format=\(offer.code.userName)) " + sizes.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}

/// 30 → "30", 7.5 → "7.5".
public func formatRate(_ fps: Double) -> String {
    fps == fps.rounded() ? String(Int(fps)) : String(format1: fps)
}

extension String {
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
