import FramelabCore
import Testing

@Suite struct MatTests {
    @Test(arguments: PixelFormat.allCases)
    func allocationHasFormatSizeAndStride(format: PixelFormat) {
        let m = Mat(format: format, width: 7, height: 3, rowAlignment: 16)
        #expect(m.rowBytes == 7 * format.bytesPerPixel)
        #expect(m.stride % 16 == 0 && m.stride >= m.rowBytes)
        #expect(m.spanBytes == m.stride * 2 + m.rowBytes)
        #expect(m.pixel(x: 6, y: 2) == Array(repeating: 0, count: format.channels))
    }

    @Test func viewSharesPixelsWithParent() {
        let parent = Mat(format: .bgra8, width: 10, height: 8)
        let view = parent.view(x: 3, y: 2, width: 4, height: 5)
        #expect(view.stride == parent.stride)
        #expect(!view.isContiguous)
        view.setPixel(x: 0, y: 0, [1, 2, 3, 4])
        #expect(parent.pixel(x: 3, y: 2) == [1, 2, 3, 4])
        parent.setPixel(x: 6, y: 6, [9, 9, 9, 9])
        #expect(view.pixel(x: 3, y: 4) == [9, 9, 9, 9])
    }

    @Test func cloneIsDeepAndContiguous() {
        let parent = Mat(format: .bgr8, width: 9, height: 5, stride: 40)
        for y in 0..<5 { for x in 0..<9 { parent.setPixel(x: x, y: y, [Double(x), Double(y), Double(x + y)]) } }
        let view = parent.view(x: 2, y: 1, width: 5, height: 3)
        let copy = view.clone()
        #expect(copy.isContiguous)
        #expect(copy.hasSamePixels(as: view))
        #expect(!copy.sharesPixels(with: view))
        copy.setPixel(x: 0, y: 0, [200, 200, 200])
        #expect(view.pixel(x: 0, y: 0) == [2, 1, 3])
    }

    @Test func borrowedMemoryIsReleasedOnceWhenLastHeaderGoes() {
        let flag = ReleaseFlag()
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { bytes.deallocate() }
        do {
            let m = Mat(borrowing: bytes, format: .gray8, width: 8, height: 8, stride: 8,
                        release: { flag.count += 1 })
            let v = m.view(x: 1, y: 1, width: 2, height: 2)
            v.setPixel(x: 0, y: 0, [42])
            #expect(bytes.load(fromByteOffset: 9, as: UInt8.self) == 42)
        }
        #expect(flag.count == 1)
    }

    @Test func grayF32PixelsRoundTrip() {
        let m = Mat(format: .grayF32, width: 3, height: 2)
        m.setPixel(x: 2, y: 1, [0.25])
        #expect(m.pixel(x: 2, y: 1) == [0.25])
        #expect(m.maxAbsDifference(to: m.clone()) == 0)
    }

    @Test func formatNamesParseBack() {
        for f in PixelFormat.allCases { #expect(PixelFormat(name: f.name) == f) }
        #expect(PixelFormat(name: "rgb565") == nil)
    }
}

final class ReleaseFlag: @unchecked Sendable { var count = 0 }
