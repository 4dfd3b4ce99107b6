import Foundation

/// The page's files as they were in `Web/` when the binary was built, so
/// `touchtracker serve` runs from a copy of the binary anywhere.
///
/// The `EmbedWebAssets` build plugin generates `base64Files` from every file
/// under `Web/` (and `openAPIBase64` from `docs/openapi.yaml`); `touchtracker.wasm` is among them only if
/// `Scripts/build-wasm.sh` ran before `swift build`.
public enum EmbeddedWebAssets {
  /// Each file's bytes by its path relative to `Web/` ("index.html",
  /// "js/input.js"), decoded once, on first use.
  public static let files: [String: Data] = {
    var files: [String: Data] = [:]
    for (path, base64) in base64Files {
      files[path] = Data(base64Encoded: base64)
    }
    return files
  }()

  /// `docs/openapi.yaml` as it was when the binary was built: the HTTP
  /// API's contract, served at `/api/openapi.yaml`.
  public static let openAPIDocument = Data(base64Encoded: openAPIBase64) ?? Data()
}
