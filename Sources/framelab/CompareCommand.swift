import ArgumentParser
import FramelabCore
import FramelabRuns
import Foundation

/// `framelab compare`: what differs between two recorded runs, with intervals and a test.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two recorded runs: per-stage timing differences and per-detector AP differences, with 95% intervals.",
        discussion: """
            A and B are FILE.h5 or FILE.h5:RUN (without RUN: the file's newest run); both may name the same \
            file. Pipeline runs (framelab run) and eval runs (framelab eval, framelab merge) are compared; \
            bench runs are not. Stages pair by name, else by element (the name before ':', so \
            'opencv-haar' pairs with 'opencv-haar:min_size=80') when that is unique on each side.

            Timings, per paired stage (and end to end for two pipeline runs): the medians of A and B in ms, \
            the difference B − A with a percentile bootstrap interval (each run's frames resampled \
            independently), B/A, and a two-sided Mann–Whitney U test (normal approximation, ties given \
            average ranks with the variance corrected for them, continuity correction 0.5; like \
            scipy.stats.mannwhitneyu with method="asymptotic"). A small p says B's times tend to be longer \
            or shorter than A's; the interval says by how much. The last column says "B slower" or "B faster" \
            only when the interval excludes 0 and p < 0.05.

            AP, per paired detector of two eval runs: the difference B − A with a paired bootstrap interval: \
            the images are resampled, the same images for both runs. The runs must be over the same images \
            (matched by path) with the same annotations; otherwise the AP comparison is left out and the \
            output says why.

            Intervals cover 95%, from --resamples resamples drawn by a generator seeded with --seed, so the \
            same runs give the same output. --json prints {"a", "b": {"file", "run", "kind", "frames", \
            "stages"}, "resamples", "seed", "confidence", "stages": [{"a_stage", "b_stage", "a_frames", \
            "b_frames", "a_median_ms", "b_median_ms", "difference_ms", "interval_ms": [low, high], "ratio", \
            "mann_whitney_u", "z", "p", "b_slower_share"}], "only_in_a", "only_in_b", "untimed", "images", \
            "detectors": [{"a_detector", "b_detector", "a_ap", "b_ap", "difference", "interval": [low, high]}], \
            "detectors_not_compared"}. Exit status 1, with one line on standard error, for a missing file or \
            run, a run of another kind, or two runs with no stage in common. A comparison that takes more \
            than 2 s prints a progress line per stage or detector on standard error.
            """)

    @Argument(help: "Run A: FILE.h5 or FILE.h5:RUN.")
    var a: String

    @Argument(help: "Run B: FILE.h5 or FILE.h5:RUN; differences are B − A.")
    var b: String

    @Option(help: "Bootstrap resamples per interval (100 to 100000).")
    var resamples = Bootstrap.defaultResamples

    @Option(help: "Seed of the bootstrap's random generator.")
    var seed = Bootstrap.defaultSeed

    @Flag(name: .long, help: "Print one JSON object instead of tables.")
    var json = false

    func validate() throws {
        if !(100...100_000).contains(resamples) {
            throw usageError("--resamples must be between 100 and 100000, got \(resamples)")
        }
    }

    func run() throws {
        let comparison: RunComparison
        do {
            // Quiet for the usual second; after that one line per item on standard error.
            let started = MonotonicClock.now()
            for spec in [a, b] { try RecordingVetting.vet(RunReference(parsing: spec).path) }
            comparison = try RunComparison(RunReference(parsing: a), RunReference(parsing: b),
                                           bootstrap: Bootstrap(resamples: resamples, seed: seed)) { done, total, item in
                if MonotonicClock.now() - started > 2_000_000_000 {
                    printToStandardError("framelab: compare: \(done)/\(total) done, bootstrapping \(item) …")
                }
            }
        } catch {
            throw failure(error)
        }
        if json {
            try printJSON(comparison)
        } else {
            print(CompareText.render(comparison))
        }
    }
}
