/// The numbers the browser page and the core must agree on, declared once.
///
/// The page's copies are in `Web/core/bridge.js` (`PHASE`, `STATUS`, `STRIDE`,
/// `KIND`, `PROBE`); `PageInterfaceTests` reads that file and fails when any
/// of them differs from the values here, so neither side can change alone.
/// The exports themselves (`tt_*`) are the shims in `Wasm/`; what each
/// returns is documented there and in docs/DESIGN.md ("The page seam").
public enum PageInterface {
  /// The phase numbers `tt_touch` takes.
  public static let phaseCodes: [(phase: TouchPhase, code: Int32)] = [
    (.began, 0), (.moved, 1), (.stationary, 2), (.ended, 3), (.cancelled, 4),
  ]

  /// Floats per render command (`RenderList`'s layout).
  public static let renderStride = RenderList.stride

  /// The kinds a render command's first float names.
  public static let renderKinds: [(name: String, kind: RenderCommand.Kind)] = [
    ("segment", .segment), ("circle", .circle), ("fill", .fill), ("text", .text),
  ]

  /// The floats `tt_probe_line` writes at `tt_probe_ptr`, in order.
  public static let probeLayout = ["x", "y", "width", "rgb"]

  /// The largest canvas side the core accepts, in points; larger sizes are clamped.
  public static let maximumCanvasSide = 100_000.0
}

extension TouchPhase {
  /// The phase's number on the page (`PageInterface.phaseCodes`).
  public var pageCode: Int32 {
    PageInterface.phaseCodes.first { $0.phase == self }!.code
  }

  /// The phase with page number `code`, or nil for any other number.
  public init?(pageCode code: Int32) {
    guard let entry = PageInterface.phaseCodes.first(where: { $0.code == code }) else { return nil }
    self = entry.phase
  }
}
