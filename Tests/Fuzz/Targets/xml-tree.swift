import FramelabCore

/// XMLTree, Framelab's XML reader (dlib annotations, OpenCV cascade files), and a walk of
/// the tree it builds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "tree.xml")
    FuzzInput.check(naming: path) {
        let root = try XMLTree.parse(contentsOf: path)
        var stack = [root]
        while let node = stack.popLast() {
            _ = node.trimmedText
            stack += node.children
        }
    }
    return 0
}
