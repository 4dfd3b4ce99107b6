// The example uses the engine and nothing else. The wasm build compiles the
// engine and the example as one module and leaves this file out
// (Scripts/build-wasm.sh --example).
@_exported import TouchKit
