import FramelabCore

/// One slice of a dataset: shard `index` of `count` (0-based, like SLURM_ARRAY_TASK_ID).
///
/// An image belongs to shard `fnv1a64(name) % count`, where `name` is its path inside the
/// dataset as the annotation file writes it (`images/astronaut.png`, `2002/08/11/big/img_591`):
/// the same image lands in the same shard on every machine, whatever folder the dataset sits in
/// and whatever order the loader returns.
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw FramelabError(.badInput, "shard count must be at least 1, got \(count)") }
        guard (0..<count).contains(index) else {
            throw FramelabError(.badInput, "shard index must be in 0...\(count - 1) for \(count) shards, got \(index)")
        }
        self.index = index
        self.count = count
    }

    /// `K/N` as `--shard` takes it; errors quote the text.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw FramelabError(.badInput, "--shard '\(text)': expected K/N with whole numbers, e.g. 0/4")
        }
        do { try self.init(index: k, count: n) } catch let error as FramelabError {
            throw FramelabError(.badInput, "--shard '\(text)': \(error.message)")
        }
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// The shard an image with this dataset-relative name belongs to, of `count`.
    public static func assignment(ofImageNamed name: String, count: Int) -> Int {
        Int(FNV1a64.hash(name.utf8) % UInt64(count))
    }

    public func contains(imageNamed name: String) -> Bool {
        Self.assignment(ofImageNamed: name, count: count) == index
    }

    /// Positions (in dataset order) of the images of `names` that belong to this shard.
    public func positions(in names: [String]) -> [Int] {
        names.indices.filter { contains(imageNamed: names[$0]) }
    }
}

/// 64-bit FNV-1a (Fowler, Noll, Vo): a tiny, well-spread, platform-independent string hash.
public enum FNV1a64 {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h = offsetBasis
        for b in bytes {
            h ^= UInt64(b)
            h = h &* prime
        }
        return h
    }
}
