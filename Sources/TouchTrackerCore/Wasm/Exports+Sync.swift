// Sync (Host/PageHost+Sync.swift): each event the page hands the client
// answers the length of `{"revision", "pending", "connection", "effects"}`
// at `tt_out_ptr` (`{"error"}` when refused).

/// Starts sync for this page: `origin` (its id origin: the keys' prefix); changes go over the socket once
/// one is welcomed (1), or by POST until then (0).
@_expose(wasm, "tt_sync_start") @_cdecl("tt_sync_start")
public func ttSyncStart(origin: Int32, overSocket: Int32) {
  wasmHost?.startSync(origin: UInt32(bitPattern: origin), overSocket: overSocket != 0)
}

/// One event (`PageHost.SyncInput`), with `length` bytes of text at `tt_alloc`'s buffer for those that
/// read one and its numbers `a`, `b`; -1 when the memory ran out, -2 for an unknown event.
@_expose(wasm, "tt_sync") @_cdecl("tt_sync")
public func ttSync(event: Int32, length: Int32, a: Double, b: Double) -> Int32 {
  guard let host = wasmHost else { return -1 }
  guard let input = PageHost.SyncInput(rawValue: event) else { return -2 }
  return Int32(truncatingIfNeeded: host.sync(input, length: Int(length), a, b))
}

/// The drawing without this person's unacknowledged changes, as a document at `tt_out_ptr`: a `rebase`'s base.
@_expose(wasm, "tt_sync_base_document") @_cdecl("tt_sync_base_document")
public func ttSyncBaseDocument() -> Int32 { Int32(truncatingIfNeeded: wasmHost?.syncBaseDocument() ?? -1) }
