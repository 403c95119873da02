/// PushSim's version, as `pushsim --version` prints it and `run.json` records it.
/// Semantic versioning: the minor number grows with new scenario fields, options or
/// report columns, the patch number with fixes; the major number will once a scenario
/// file that ran stops running.
public enum PushSimVersion {
    public static let current = "0.7.0"
}
