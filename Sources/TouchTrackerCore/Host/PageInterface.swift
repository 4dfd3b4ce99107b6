/// The numbers the browser page and the core must agree on, declared once.
///
/// The page's copies are in `Web/core/bridge.js` (`PHASE`, `TOUCH_TYPE` for `TouchType`, `STRIDE`, `KIND`,
/// `PROBE`, and `STATUS` and `STATIC` for `PageHost.TouchStatus` and `.StaticMode`); `PageInterfaceTests` reads that file and fails when any
/// of them differs from the values here, so neither side can change alone.
/// The exports themselves (`tt_*`) are the shims in `Wasm/`; what each
/// returns is documented there and in docs/DESIGN.md ("The page seam").
public enum PageInterface {
  /// The phase numbers `tt_touch` takes: `TouchPhase`'s raw values.
  public static func phaseCode(_ phase: TouchPhase) -> Int32 { phase.rawValue }

  /// Floats per render command (`RenderList`'s layout).
  public static let renderStride = RenderList.stride

  /// The kinds a render command's first float names.
  public static let renderKinds: [(name: String, kind: RenderCommand.Kind)] = [
    ("segment", .segment), ("circle", .circle), ("fill", .fill), ("text", .text), ("clip", .clip),
  ]

  /// The floats `tt_probe_line` writes at `tt_probe_ptr`, in order.
  public static let probeLayout = ["x", "y", "width", "rgb"]

  /// The largest canvas side the core accepts, in points; larger sizes are clamped.
  public static let maximumCanvasSide = 100_000.0
}
