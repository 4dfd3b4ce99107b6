// The app is built on the engine, and so is every client of the app's
// module. The wasm build compiles the engine and the app as one module and
// leaves this file out (Scripts/build-wasm.sh).
@_exported import TouchKit
