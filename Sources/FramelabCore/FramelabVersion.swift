/// Framelab's version, recorded in every run.
public enum FramelabVersion {
    public static let string = "0.1.0"
}
