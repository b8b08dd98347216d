import FramelabPipeline
import FramelabRecording

/// Writes pipeline events into a run's HDF5 records (the writer buffers and flushes them).
struct RunEventRecorder {
    let writer: RunWriter

    func record(_ event: PipelineEvent) {
        switch event {
        case .frame(let f):
            writer.append(FrameRecord(index: Int64(f.index), ptsNs: f.pts, arrivalNs: Int64(f.arrival),
                                      dropped: f.dropped, failed: f.failed))
        case .timing(let frame, let stage, let start, let duration):
            writer.append(StageTimingRecord(frame: Int64(frame), stage: Int32(stage), startNs: Int64(start),
                                            durationNs: Int64(duration)))
        case .failure(let frame, let stage, let reason):
            writer.append(FailureRecord(frame: Int64(frame), stage: Int32(stage), reason: reason))
        case .sourceEvent(let kind, let detail, let frame, let time):
            writer.append(EventRecord(frame: Int64(frame), timeNs: Int64(time), kind: kind, detail: detail))
        case .output:
            break
        }
    }
}
