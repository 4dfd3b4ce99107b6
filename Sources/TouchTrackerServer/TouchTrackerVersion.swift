/// The version `touchtracker --version` prints and `/healthz` reports; bump
/// it with each release.
public enum TouchTrackerVersion {
  public static let current = "0.2.0"
}
