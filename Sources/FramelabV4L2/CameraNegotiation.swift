import CV4L2
import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// Picks the offered format, size and rate closest to a request, sets them, and reads
/// back what the driver granted (which may still differ: drivers have the last word).
enum CameraNegotiation {
    struct Choice { let offer: FormatOffer; let size: SizeOffer; let fps: Double? }

    static func choose(_ request: CameraRequest, from offers: [FormatOffer], path: String) throws -> Choice {
        var candidates = offers.filter { !$0.sizes.isEmpty }
        if let format = request.format {
            candidates = candidates.filter { $0.code == format }
            guard !candidates.isEmpty else {
                throw CameraErrors.noMatchingFormat(path, wanted: "format=\(format.userName) (\(format))", offers: offers)
            }
        }
        guard !candidates.isEmpty else {
            throw CameraErrors.noMatchingFormat(path, wanted: request.summary, offers: offers)
        }
        let want = (request.width ?? request.height.map { $0 * 4 / 3 } ?? CameraRequest.defaultSize.width,
                    request.height ?? request.width.map { $0 * 3 / 4 } ?? CameraRequest.defaultSize.height)
        var best: (cost: Double, choice: Choice)?
        for (order, offer) in candidates.enumerated() {
            for size in offer.sizes {
                let sizeCost = Double(abs(size.width - want.0) + abs(size.height - want.1))
                let fps = request.fps.flatMap { f in size.rates.min { abs($0 - f) < abs($1 - f) } } ?? size.rates.first
                // The rate matters less than the size; the format order breaks ties.
                let rateCost = request.fps.map { f in abs((fps ?? f) - f) } ?? 0
                let cost = sizeCost * 1000 + rateCost * 10 + Double(order)
                if best == nil || cost < best!.cost { best = (cost, Choice(offer: offer, size: size, fps: fps)) }
            }
        }
        return best!.choice
    }

    /// Sets the choice on the device and returns what the driver granted.
    static func apply(_ choice: Choice, buffers: Int, on device: V4L2Device) throws(V4L2CallError) -> (CameraGrant, v4l2_format) {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.pixelformat = choice.offer.code.rawValue
        format.fmt.pix.width = UInt32(choice.size.width)
        format.fmt.pix.height = UInt32(choice.size.height)
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try device.ioctl(FL_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)

        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        if let fps = choice.fps, fps > 0 {
            // 1/fps as a fraction with a 1000 denominator keeps 29.97 and 7.5 exact enough.
            parm.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
            do { try device.ioctl(FL_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parm) } catch where error.code == EINVAL {
                // Drivers without frame-rate control refuse S_PARM; the rate is then theirs.
            }
        }
        var granted = v4l2_streamparm()
        granted.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        var fps = choice.fps ?? 0
        if (try? device.ioctl(FL_VIDIOC_G_PARM, "VIDIOC_G_PARM", &granted)) != nil {
            let t = granted.parm.capture.timeperframe
            if t.numerator > 0 && t.denominator > 0 { fps = Double(t.denominator) / Double(t.numerator) }
        }
        var current = v4l2_format()
        current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try device.ioctl(FL_VIDIOC_G_FMT, "VIDIOC_G_FMT", &current)
        let pix = current.fmt.pix
        let grant = CameraGrant(format: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                                fps: fps, bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage),
                                buffers: buffers)
        return (grant, current)
    }
}
