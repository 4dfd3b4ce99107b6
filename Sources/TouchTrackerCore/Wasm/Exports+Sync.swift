// Sync (Host/PageHost+Sync.swift): each call hands the client one event and
// answers the length of `{"revision", "pending", "connection", "effects"}`
// at `tt_out_ptr` (`{"error"}` when refused). Revisions are f64: -1 for none.

private func revision(_ value: Double) -> Int? { value >= 0 && value <= 9e15 ? Int(value) : nil }
private func answer(_ length: Int) -> Int32 { Int32(truncatingIfNeeded: length) }

/// Starts sync for this page: `origin` (its id origin: the keys' prefix); changes go over the socket once
/// one is welcomed (1), or by POST until then (0).
@_expose(wasm, "tt_sync_start") @_cdecl("tt_sync_start")
public func ttSyncStart(origin: Int32, overSocket: Int32) {
  wasmHost?.startSync(origin: UInt32(bitPattern: origin), overSocket: overSocket != 0)
}

/// The live socket opened.
@_expose(wasm, "tt_sync_socket_opened") @_cdecl("tt_sync_socket_opened")
public func ttSyncSocketOpened() -> Int32 { answer(wasmHost?.syncEvent { $0.socketOpened() } ?? -1) }

/// The live socket closed (or missed its heartbeat).
@_expose(wasm, "tt_sync_socket_closed") @_cdecl("tt_sync_socket_closed")
public func ttSyncSocketClosed() -> Int32 { answer(wasmHost?.syncEvent { $0.socketClosed() } ?? -1) }

/// A drawing at `revision` (-1: unknown) is open, nothing of this person's on top.
@_expose(wasm, "tt_sync_opened") @_cdecl("tt_sync_opened")
public func ttSyncOpened(revision value: Double) -> Int32 {
  answer(wasmHost?.syncEvent { $0.opened(revision: revision(value)) } ?? -1)
}

/// This browser's copy (`{"entries":[...]}`, `length` bytes at `tt_alloc`'s buffer) after the drawing open
/// now: its base at `base`, or (`server` >= 0) the server's drawing at `server`.
@_expose(wasm, "tt_sync_restore") @_cdecl("tt_sync_restore")
public func ttSyncRestore(length: Int32, base: Double, server: Double) -> Int32 {
  answer(
    wasmHost?.syncRestore(length: Int(length), baseRevision: revision(base), serverRevision: revision(server)) ?? -1)
}

/// After each frame with a finished change.
@_expose(wasm, "tt_sync_collect") @_cdecl("tt_sync_collect")
public func ttSyncCollect() -> Int32 { answer(wasmHost?.syncCollect() ?? -1) }

/// Sends what waits, if it can.
@_expose(wasm, "tt_sync_flush") @_cdecl("tt_sync_flush")
public func ttSyncFlush() -> Int32 { answer(wasmHost?.syncEvent { $0.flush() } ?? -1) }

@_expose(wasm, "tt_sync_connected") @_cdecl("tt_sync_connected")
public func ttSyncConnected() -> Int32 { answer(wasmHost?.syncEvent { $0.connected() } ?? -1) }

@_expose(wasm, "tt_sync_disconnected") @_cdecl("tt_sync_disconnected")
public func ttSyncDisconnected() -> Int32 { answer(wasmHost?.syncEvent { $0.disconnected() } ?? -1) }

/// A socket frame (`length` bytes at `tt_alloc`'s buffer).
@_expose(wasm, "tt_sync_message") @_cdecl("tt_sync_message")
public func ttSyncMessage(length: Int32) -> Int32 { answer(wasmHost?.syncMessage(length: Int(length)) ?? -1) }

/// The POST of the batch on its way answered `revision`.
@_expose(wasm, "tt_sync_answered") @_cdecl("tt_sync_answered")
public func ttSyncAnswered(revision value: Double) -> Int32 {
  answer(
    wasmHost?.syncEvent { client in
      guard let key = client.batches.first?.key, let revision = revision(value) else { return }
      client.answered(key: key, revision: revision)
    } ?? -1)
}

/// The server refused the batch on its way for good.
@_expose(wasm, "tt_sync_refused") @_cdecl("tt_sync_refused")
public func ttSyncRefused() -> Int32 {
  answer(
    wasmHost?.syncEvent { client in
      guard let key = client.batches.first?.key else { return }
      client.refused(key: key)
    } ?? -1)
}

/// `GET .../changes?since=` answered (`length` bytes at `tt_alloc`'s buffer).
@_expose(wasm, "tt_sync_pulled") @_cdecl("tt_sync_pulled")
public func ttSyncPulled(length: Int32, since: Double) -> Int32 {
  guard let since = revision(since) else { return -1 }
  return answer(wasmHost?.syncPulled(length: Int(length), since: since) ?? -1)
}

/// The server's drawing at `revision` is open now (after `fetch`).
@_expose(wasm, "tt_sync_replaced") @_cdecl("tt_sync_replaced")
public func ttSyncReplaced(revision value: Double) -> Int32 {
  answer(
    wasmHost?.syncEvent { client in
      guard let revision = revision(value) else { return }
      client.replaced(revision: revision)
    } ?? -1)
}

/// A write to this browser's copy failed: it is written anew (a `rebase`).
@_expose(wasm, "tt_sync_rewrite") @_cdecl("tt_sync_rewrite")
public func ttSyncRewrite() -> Int32 { answer(wasmHost?.syncEvent { $0.rewriteCopy() } ?? -1) }

/// The drawing was renamed, its revisions moved up by `shift`.
@_expose(wasm, "tt_sync_renamed") @_cdecl("tt_sync_renamed")
public func ttSyncRenamed(shift: Double) -> Int32 {
  answer(wasmHost?.syncEvent { $0.renamed(shift: shift.isFinite ? Int(max(min(shift, 9e15), -9e15)) : 0) } ?? -1)
}

/// The page is going away: the oldest batch, to send once more (`keepalive`).
@_expose(wasm, "tt_sync_leaving") @_cdecl("tt_sync_leaving")
public func ttSyncLeaving() -> Int32 { answer(wasmHost?.syncEvent { $0.leaving() } ?? -1) }

/// The drawing without this person's unacknowledged changes, as a document at `tt_out_ptr`: a `rebase`'s base.
@_expose(wasm, "tt_sync_base_document") @_cdecl("tt_sync_base_document")
public func ttSyncBaseDocument() -> Int32 { answer(wasmHost?.syncBaseDocument() ?? -1) }
