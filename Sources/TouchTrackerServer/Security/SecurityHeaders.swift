/// The headers on every response.
///
/// The policy allows exactly what the page uses: its own scripts, styles,
/// images and manifest, `fetch` to its own origin, and compiling
/// WebAssembly (`'wasm-unsafe-eval'`, which permits nothing for JavaScript).
/// No inline script or style, no plugins, and no framing by another site
/// (`frame-ancestors 'none'`, and `X-Frame-Options` for older browsers).
enum SecurityHeaders {
  static let contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].joined(separator: "; ")

  static let all: [(name: String, value: String)] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", contentSecurityPolicy),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
  ]
}
