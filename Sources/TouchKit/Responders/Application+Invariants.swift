extension Application {
  /// Checks the touch bookkeeping after every event and clock step, in debug
  /// builds (every test) only; release and wasm builds compile it away.
  ///
  /// - every touch the host holds down has exactly one record, in `records`;
  /// - a record is down exactly when the host has not finished it;
  /// - a view was never sent a touch it should not hear of (ignored touches);
  /// - a withdrawn touch holds nothing back for its view;
  /// - held snapshots are in the order they happened.
  @inline(__always)
  func _checkInvariants() {
    #if DEBUG
      var hostIDs: [Int] = []
      for record in down {
        precondition(!record.hostFinished, "a touch the host finished is still down")
        precondition(records.contains { $0 === record }, "a touch down has no record")
        precondition(!hostIDs.contains(record.hostID), "two touches down share host id \(record.hostID)")
        hostIDs.append(record.hostID)
      }
      for record in records {
        precondition(record.hostFinished || down.contains { $0 === record }, "a record not finished is not down")
        precondition(
          !record.isIgnored || (record.held.isEmpty && (record.isUnheardOf || record.isWithdrawn)),
          "an ignored touch reached its view")
        precondition(!record.isWithdrawn || record.held.isEmpty, "a withdrawn touch still holds snapshots")
        var serial = Int.min
        for item in record.held {
          precondition(item.serial >= serial, "held snapshots out of order")
          serial = item.serial
          precondition(heldEvents.contains { $0.serial == item.serial }, "a held snapshot outlived its event")
        }
      }
    #endif
  }
}
