extension LineIndex {
  /// Checks the index against the lines it was built from, in debug builds
  /// (every test) only; release and wasm builds compile it away.
  ///
  /// - every built line is in exactly one place: one live bucket entry, or
  ///   the unbucketed list (dead entries name no line);
  /// - every bucket lies inside the entries, buckets follow one another, and
  ///   each is sorted by quantized left edge (queries stop early on that order);
  /// - lines appended since the build are the ones after `builtCount`.
  @inline(__always)
  func _checkInvariants(_ lines: [Line]) {
    #if DEBUG
      guard isCurrent, count == lines.count else { return }  // invalidated: the next query rebuilds
      precondition(builtCount <= count, "more lines built than the index holds")
      var seen = [UInt8](repeating: 0, count: builtCount)
      var dead = 0
      for entry in entries {
        if entry.line == Entry.dead {
          dead += 1
          continue
        }
        let line = Int(entry.line)
        precondition(line >= 0 && line < builtCount, "an entry names a line that was not built")
        seen[line] += 1
      }
      for position in unbucketed {
        precondition(Int(position) < builtCount, "an unbucketed line was not built")
        seen[Int(position)] += 1
      }
      precondition(seen.allSatisfy { $0 == 1 }, "a built line is missing from the index or in it twice")
      precondition(dead == deadCount, "dead entries miscounted")
      precondition(looseCount <= unbucketed.count, "more loose lines than unbucketed ones")
      var next = 0
      for sizeClass in classes {
        let starts = sizeClass.starts
        precondition(Int(starts[0]) == next, "size classes do not follow one another")
        for bucket in 0..<(starts.count - 1) {
          let range = Int(starts[bucket])..<Int(starts[bucket + 1])
          precondition(range.lowerBound <= range.upperBound && range.upperBound <= entries.count, "bad bucket")
          var edge = 0
          for index in range {
            precondition(entries[index].leftEdge >= edge, "a bucket is not sorted by left edge")
            edge = entries[index].leftEdge
          }
        }
        next = Int(starts[starts.count - 1])
      }
      precondition(next == entries.count, "entries outside every bucket")
    #endif
  }
}
