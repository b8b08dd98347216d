import FramelabCore
import FramelabScaleOut
import Testing

@Suite struct ShardTests {
    @Test func fnv1a64MatchesThePublishedTestVectors() {
        // From the FNV reference test suite (Noll, "FNV hash test vectors").
        #expect(FNV1a64.hash("".utf8) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a64.hash("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a64.hash("foobar".utf8) == 0x8594_4171_f739_67e8)
    }

    @Test func everyImageLandsInExactlyOneShardWhateverTheOrder() throws {
        let names = (0..<500).map { "images/\($0 % 7)/photo_\($0).jpg" }
        for n in 1...7 {
            let shards = try (0..<n).map { try Shard(index: $0, count: n) }
            var seen = [Int](repeating: 0, count: names.count)
            for s in shards { for p in s.positions(in: names) { seen[p] += 1 } }
            #expect(seen.allSatisfy { $0 == 1 }, "N=\(n)")
            // Same assignment for the same names in another order (another loader, another machine).
            let reversed = Array(names.reversed())
            for s in shards {
                let a = Set(s.positions(in: names).map { names[$0] })
                let b = Set(s.positions(in: reversed).map { reversed[$0] })
                #expect(a == b)
            }
        }
        // Spread: no shard of 4 gets less than half its fair share of 500 names.
        let sizes = try (0..<4).map { try Shard(index: $0, count: 4).positions(in: names).count }
        #expect(sizes.allSatisfy { $0 > 500 / 8 }, "\(sizes)")
    }

    @Test func assignmentIsTheHashOfTheNameModuloTheCount() throws {
        for name in ["images/astronaut.png", "2002/08/11/big/img_591", "0--Parade/0_Parade_marchingband_1_465.jpg"] {
            let expected = Int(FNV1a64.hash(Array(name.utf8)) % 5)
            #expect(Shard.assignment(ofImageNamed: name, count: 5) == expected)
            #expect(try Shard(index: expected, count: 5).contains(imageNamed: name))
        }
    }

    @Test func parsesKOverNAndRejectsBadTextNamingIt() throws {
        #expect(try Shard(parsing: "3/4") == Shard(index: 3, count: 4))
        for bad in ["4/4", "-1/4", "1/0", "a/4", "1", "1/2/3", ""] {
            do {
                _ = try Shard(parsing: bad)
                Issue.record("'\(bad)' was accepted")
            } catch let error as FramelabError {
                #expect(error.message.contains("'\(bad)'"), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
        }
    }

    @Test func environmentGivesTheShardUnlessTheOptionDoes() throws {
        let slurm = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"]
        #expect(try ShardEnvironment.resolve(option: nil, countOption: nil, environment: slurm) == Shard(index: 2, count: 4))
        #expect(try ShardEnvironment.resolve(option: "1/3", countOption: nil, environment: slurm) == Shard(index: 1, count: 3))
        let k8s = ["JOB_COMPLETION_INDEX": "5"]
        #expect(try ShardEnvironment.resolve(option: nil, countOption: 8, environment: k8s) == Shard(index: 5, count: 8))
        #expect(try ShardEnvironment.resolve(option: nil, countOption: nil,
                                             environment: k8s.merging(["FRAMELAB_SHARD_COUNT": "6"]) { $1 })
                == Shard(index: 5, count: 6))
        #expect(try ShardEnvironment.resolve(option: nil, countOption: nil, environment: [:]) == nil)
    }

    @Test func badEnvironmentValuesAreErrorsNamingTheVariable() {
        let cases: [([String: String], Int?, String)] = [
            (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"], nil, "SLURM_ARRAY_TASK_ID"),
            (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "four"], nil, "SLURM_ARRAY_TASK_COUNT"),
            (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], nil, "SLURM_ARRAY_TASK_ID=4"),
            (["SLURM_ARRAY_TASK_ID": "1"], nil, "SLURM_ARRAY_TASK_COUNT"),
            (["JOB_COMPLETION_INDEX": "1"], nil, "FRAMELAB_SHARD_COUNT"),
            (["JOB_COMPLETION_INDEX": "9"], 4, "JOB_COMPLETION_INDEX=9"),
            (["JOB_COMPLETION_INDEX": "1", "FRAMELAB_SHARD_COUNT": "0"], nil, "JOB_COMPLETION_INDEX=1"),
            ([:], 4, "--shard-count"),
        ]
        for (env, count, name) in cases {
            do {
                _ = try ShardEnvironment.resolve(option: nil, countOption: count, environment: env)
                Issue.record("\(env) was accepted")
            } catch let error as FramelabError {
                #expect(error.message.contains(name), "\(env): \(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
