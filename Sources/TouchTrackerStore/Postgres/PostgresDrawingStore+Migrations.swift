import Logging
import NIOPosix
import PostgresNIO

extension PostgresDrawingStore {
  /// One change of the schema. Never edit one that has shipped; add one.
  struct Migration: Sendable {
    var version: Int
    var name: String
    var statements: [String]
  }

  /// The schema, in order; `schema_migrations` records which ran.
  ///
  /// The tables are `SQLiteDrawingStore`'s (see its migrations for what each
  /// column means), with PostgreSQL's types; names are unquoted, so
  /// PostgreSQL folds them to lower case and the same SQL text reads both.
  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "Snapshot and change log",
      statements: [
        """
        CREATE TABLE drawing (
          name text PRIMARY KEY,
          revision bigint NOT NULL,
          isDeleted boolean NOT NULL,
          lineCount bigint NOT NULL,
          circleCount bigint NOT NULL,
          updatedAt timestamptz NOT NULL,
          snapshotRevision bigint NOT NULL,
          logBytes bigint NOT NULL
        )
        """,
        "CREATE TABLE drawingSnapshot (name text PRIMARY KEY, document text NOT NULL, checksum bigint NOT NULL)",
        """
        CREATE TABLE drawingChange (
          name text NOT NULL,
          revision bigint NOT NULL,
          change text NOT NULL,
          batchKey text,
          checksum bigint NOT NULL,
          PRIMARY KEY (name, revision)
        )
        """,
        """
        CREATE TABLE drawingBatch (
          name text NOT NULL,
          batchKey text NOT NULL,
          revision bigint NOT NULL,
          PRIMARY KEY (name, batchKey)
        )
        """,
      ]),
    Migration(
      version: 2, name: "Share links",
      statements: ["CREATE TABLE drawingLink (name text PRIMARY KEY, edit text NOT NULL, view text NOT NULL)"]),
    Migration(version: 3, name: "Append in one statement", statements: [appendFunction]),
    Migration(
      version: 4, name: "Renames",
      statements: [
        """
        CREATE TABLE drawingRename (
          name text PRIMARY KEY,
          renamedTo text NOT NULL,
          shift bigint NOT NULL,
          tombstoneRevision bigint NOT NULL
        )
        """
      ]),
    Migration(
      version: 5, name: "Settings",
      statements: ["CREATE TABLE setting (key text PRIMARY KEY, value text NOT NULL)"]),
    Migration(
      version: 6, name: "Appends of several drawings in one statement, notices that carry small batches",
      statements: [quietAppendFunction, appendGroupFunction]),
    Migration(
      version: 7, name: "Groups lock drawings in the order of their lock keys", statements: [appendGroupInKeyOrder]),
    Migration(
      version: 8, name: "Groups append a batch in three statements and its notices, not nine",
      statements: [leanAppendGroup]),
    Migration(
      version: 9, name: "Drawings list by time",
      statements: [
        """
        CREATE INDEX drawing_by_time ON drawing (updatedAt DESC, name COLLATE "C") WHERE NOT isDeleted
        """
      ]),
  ]

  /// `appendRows` as one function in the database, so that appending a
  /// batch is one statement, one round trip and, outside a transaction,
  /// its own commit (it was nine round trips: the lock, the key, the head,
  /// the changes, the head again, the key again, the notice, `BEGIN` and
  /// `COMMIT`). The same steps as `SQLiteDrawingStore.appendRows`: take the
  /// drawing's advisory lock; a key already appended answers its revision
  /// (`o_count` 0); a revision other than `p_expected` answers `conflict`
  /// with the current one; else the changes go into the log after the
  /// stored revision (over an empty snapshot for a new drawing or one
  /// created again over its tombstone), the counts follow the deltas (a
  /// reset is a clear), the head and the key are written, and the notice
  /// of `changeChannel` is queued for the commit.
  static let appendFunction = """
    CREATE FUNCTION touchtracker_append(
      p_name text, p_expected bigint, p_key text, p_texts text[], p_checksums bigint[],
      p_line_deltas bigint[], p_circle_deltas bigint[], p_resets boolean[], p_bytes bigint,
      p_updated timestamptz, p_empty text, p_empty_checksum bigint,
      OUT o_outcome text, OUT o_revision bigint, OUT o_count bigint, OUT o_log_count bigint, OUT o_log_bytes bigint)
    LANGUAGE plpgsql AS $$
    DECLARE
      head drawing%ROWTYPE;
      live boolean;
      current_revision bigint;
      n integer := coalesce(array_length(p_texts, 1), 0);
      lines bigint := 0;
      circles bigint := 0;
      snapshot_revision bigint;
      log_bytes bigint := 0;
    BEGIN
      PERFORM pg_advisory_xact_lock(\(lockSpace), hashtext(p_name));
      o_count := 0; o_log_count := 0; o_log_bytes := 0;
      IF p_key IS NOT NULL THEN
        SELECT b.revision INTO o_revision FROM drawingBatch b WHERE b.name = p_name AND b.batchKey = p_key;
        IF FOUND THEN o_outcome := 'known'; RETURN; END IF;
      END IF;
      SELECT * INTO head FROM drawing d WHERE d.name = p_name;
      live := FOUND AND NOT head.isDeleted;
      current_revision := CASE WHEN live THEN head.revision ELSE 0 END;
      o_revision := current_revision;
      IF p_expected IS NOT NULL AND p_expected <> current_revision THEN o_outcome := 'conflict'; RETURN; END IF;
      o_outcome := 'ok';
      IF n = 0 THEN RETURN; END IF;
      o_revision := coalesce(head.revision, 0);
      snapshot_revision := o_revision;
      IF live THEN
        lines := head.lineCount; circles := head.circleCount;
        snapshot_revision := head.snapshotRevision; log_bytes := head.logBytes;
      ELSE
        INSERT INTO drawingSnapshot (name, document, checksum) VALUES (p_name, p_empty, p_empty_checksum)
        ON CONFLICT (name) DO UPDATE SET document = excluded.document, checksum = excluded.checksum;
      END IF;
      INSERT INTO drawingChange (name, revision, change, batchKey, checksum)
      SELECT p_name, o_revision + t.i, t.c, p_key, t.k
      FROM unnest(p_texts, p_checksums) WITH ORDINALITY AS t(c, k, i);
      FOR i IN 1..n LOOP
        IF p_resets[i] THEN
          lines := 0; circles := 0;
        ELSE
          lines := greatest(0, lines + p_line_deltas[i]); circles := greatest(0, circles + p_circle_deltas[i]);
        END IF;
      END LOOP;
      o_revision := o_revision + n;
      log_bytes := log_bytes + p_bytes;
      INSERT INTO drawing (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes)
      VALUES (p_name, o_revision, false, lines, circles, p_updated, snapshot_revision, log_bytes)
      ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, isDeleted = false,
        lineCount = excluded.lineCount, circleCount = excluded.circleCount, updatedAt = excluded.updatedAt,
        snapshotRevision = excluded.snapshotRevision, logBytes = excluded.logBytes;
      IF p_key IS NOT NULL THEN
        INSERT INTO drawingBatch (name, batchKey, revision) VALUES (p_name, p_key, o_revision);
      END IF;
      PERFORM pg_notify('\(changeChannel)', '\(DrawingNotice.Kind.append.rawValue) ' || o_revision || ' ' || p_name);
      o_count := n; o_log_count := o_revision - snapshot_revision; o_log_bytes := log_bytes;
    END
    $$
    """

  /// `touchtracker_append` without its notice (migration 6): the group
  /// function sends the notices itself. Made from migration 3's text, so
  /// the steps stay one text.
  static let quietAppendFunction: String = {
    let quiet =
      appendFunction
      .replacingOccurrences(
        of: "CREATE FUNCTION touchtracker_append(", with: "CREATE FUNCTION touchtracker_append_quiet("
      )
      .split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("PERFORM pg_notify(") }
      .joined(separator: "\n")
    precondition(
      quiet.contains("touchtracker_append_quiet(") && !quiet.contains("pg_notify"),
      "migration 3's text changed: the quiet append could not be made from it")
    return quiet
  }()

  /// `touchtracker_append_group`'s name, parameters and result, from
  /// migration 6 on: migration 8 replaces its body, which
  /// `CREATE OR REPLACE` does only for the same parameters and result
  /// (others would make a second function or fail).
  static let appendGroupSignature = """
    touchtracker_append_group(
      p_names text[], p_expected bigint[], p_keys text[], p_keyed boolean[], p_counts integer[], p_texts text[],
      p_checksums bigint[], p_line_deltas bigint[], p_circle_deltas bigint[], p_resets boolean[], p_bytes bigint[],
      p_updated timestamptz, p_empty text, p_empty_checksum bigint)
    RETURNS TABLE (
      o_index integer, o_outcome text, o_revision bigint, o_count bigint, o_log_count bigint, o_log_bytes bigint)
    LANGUAGE plpgsql AS $$
    """

  /// Several batches, of one drawing or of several, appended in one
  /// statement and one commit (`AppendGroups`): batch i is
  /// `touchtracker_append` of `p_names[i]` with its `p_counts[i]` changes,
  /// which follow those of the batches before it in the flat arrays;
  /// `p_expected[i]` < 0 expects no revision, `p_keyed[i]` false has no key.
  /// The batches run in the order of their drawings' names (byte order, as
  /// a rename takes its two locks), then in their own order, so two groups,
  /// or a group and a rename, lock drawings in one order and never wait on
  /// each other in a circle. One row per batch, `o_index` its place (from 1).
  static let appendGroupFunction = """
    CREATE FUNCTION \(appendGroupSignature)
    DECLARE
      firsts integer[] := '{}';
      next_first integer := 1;
      i integer;
      a integer;
      b integer;
      k text;
      carried text;
      r record;
    BEGIN
      FOR i IN 1..coalesce(array_length(p_names, 1), 0) LOOP
        firsts := firsts || next_first;
        next_first := next_first + p_counts[i];
      END LOOP;
      FOR i IN SELECT t.i FROM unnest(p_names) WITH ORDINALITY AS t(n, i) ORDER BY t.n COLLATE "C", t.i LOOP
        a := firsts[i];
        b := firsts[i] + p_counts[i] - 1;
        k := CASE WHEN p_keyed[i] THEN p_keys[i] END;
        SELECT * INTO r FROM touchtracker_append_quiet(
          p_names[i], CASE WHEN p_expected[i] < 0 THEN NULL ELSE p_expected[i] END, k, p_texts[a:b],
          p_checksums[a:b], p_line_deltas[a:b], p_circle_deltas[a:b], p_resets[a:b], p_bytes[i], p_updated, p_empty,
          p_empty_checksum);
        IF r.o_outcome = 'ok' AND r.o_count > 0 THEN
          IF k IS NULL OR k ~ '^[A-Za-z0-9_-]{1,64}$' THEN
            carried := '\(DrawingNotice.Kind.changes.rawValue) ' || r.o_revision || ' ' || r.o_count || ' ' \
    || coalesce(k, '.') || ' ' || p_names[i] || E'\\n' || array_to_string(p_texts[a:b], E'\\n');
            IF octet_length(carried) < 8000 THEN
              PERFORM pg_notify('\(changeChannel)', carried);
            END IF;
          END IF;
          PERFORM pg_notify('\(changeChannel)', '\(DrawingNotice.Kind.append.rawValue) ' || r.o_revision || ' ' || p_names[i]);
        END IF;
        o_index := i;
        o_outcome := r.o_outcome;
        o_revision := r.o_revision;
        o_count := r.o_count;
        o_log_count := r.o_log_count;
        o_log_bytes := r.o_log_bytes;
        RETURN NEXT;
      END LOOP;
    END
    $$
    """

  /// Migration 6's group function with its batches in the order of the
  /// drawings' lock keys (`hashtext(name)`), then of their names: two names
  /// can share a key, so by name alone a group of c124435 and c142084 and
  /// one of c205747 and c291502 (c124435 and c291502 share one, as do the
  /// other two) took their keys in opposite orders, and PostgreSQL broke
  /// the deadlock after a second by failing one. A rename takes its keys in
  /// that order too. Made from migration 6's text, so the steps stay one text.
  static let appendGroupInKeyOrder: String = {
    let byName = #"ORDER BY t.n COLLATE "C", t.i"#
    let text =
      appendGroupFunction
      .replacingOccurrences(
        of: "CREATE FUNCTION touchtracker_append_group(", with: "CREATE OR REPLACE FUNCTION touchtracker_append_group("
      )
      .replacingOccurrences(of: byName, with: #"ORDER BY hashtext(t.n), t.n COLLATE "C", t.i"#)
    precondition(
      text.contains("CREATE OR REPLACE FUNCTION touchtracker_append_group(") && text.contains("ORDER BY hashtext(t.n)"),
      "migration 6's text changed: the group function in key order could not be made from it")
    return text
  }()

  /// Migration 7's group function with `touchtracker_append`'s steps
  /// written into its loop, in fewer statements: the key and the head are
  /// read by one `SELECT`, and the changes, the head and the key are written
  /// by one (data-modifying `WITH` clauses run whether or not they are
  /// read): the lock, the read and the write, then the notices. A group
  /// ran nine statements a batch (the call of the function, its six and
  /// the two notices), each with the executor's start and end, and a
  /// group runs in one backend, on one core: that was what a group of
  /// eight took 4–5 ms for. Same signature, same answers, same locks in the
  /// same order, same notices.
  static let leanAppendGroup = """
    CREATE OR REPLACE FUNCTION \(appendGroupSignature)
    DECLARE
      firsts integer[] := '{}';
      next_first integer := 1;
      i integer;
      j integer;
      a integer;
      b integer;
      batch_size integer;
      k text;
      carried text;
      known bigint;
      stored_revision bigint;
      stored_deleted boolean;
      base bigint;
      line_total bigint;
      circle_total bigint;
      snapshot_at bigint;
      log_total bigint;
    BEGIN
      FOR i IN 1..coalesce(array_length(p_names, 1), 0) LOOP
        firsts := firsts || next_first;
        next_first := next_first + p_counts[i];
      END LOOP;
      FOR i IN SELECT t.i FROM unnest(p_names) WITH ORDINALITY AS t(n, i) ORDER BY hashtext(t.n), t.n COLLATE "C", t.i LOOP
        a := firsts[i];
        batch_size := p_counts[i];
        b := a + batch_size - 1;
        k := CASE WHEN p_keyed[i] THEN p_keys[i] END;
        o_index := i;
        o_count := 0; o_log_count := 0; o_log_bytes := 0;
        PERFORM pg_advisory_xact_lock(\(lockSpace), hashtext(p_names[i]));
        SELECT d.revision, d.isDeleted, d.lineCount, d.circleCount, d.snapshotRevision, d.logBytes,
          (SELECT x.revision FROM drawingBatch x WHERE x.name = p_names[i] AND x.batchKey = k)
        INTO stored_revision, stored_deleted, line_total, circle_total, snapshot_at, log_total, known
        FROM (SELECT 1) AS one LEFT JOIN drawing d ON d.name = p_names[i];
        IF known IS NOT NULL THEN
          o_outcome := 'known'; o_revision := known;
          RETURN NEXT;
          CONTINUE;
        END IF;
        o_revision := CASE WHEN stored_revision IS NOT NULL AND NOT stored_deleted THEN stored_revision ELSE 0 END;
        IF p_expected[i] >= 0 AND p_expected[i] <> o_revision THEN
          o_outcome := 'conflict';
          RETURN NEXT;
          CONTINUE;
        END IF;
        o_outcome := 'ok';
        IF batch_size = 0 THEN
          RETURN NEXT;
          CONTINUE;
        END IF;
        base := coalesce(stored_revision, 0);
        IF stored_revision IS NULL OR stored_deleted THEN
          line_total := 0; circle_total := 0; snapshot_at := base; log_total := 0;
          INSERT INTO drawingSnapshot (name, document, checksum) VALUES (p_names[i], p_empty, p_empty_checksum)
          ON CONFLICT (name) DO UPDATE SET document = excluded.document, checksum = excluded.checksum;
        END IF;
        FOR j IN a..b LOOP
          IF p_resets[j] THEN
            line_total := 0; circle_total := 0;
          ELSE
            line_total := greatest(0, line_total + p_line_deltas[j]);
            circle_total := greatest(0, circle_total + p_circle_deltas[j]);
          END IF;
        END LOOP;
        o_revision := base + batch_size;
        log_total := log_total + p_bytes[i];
        WITH changes AS (
          INSERT INTO drawingChange (name, revision, change, batchKey, checksum)
          SELECT p_names[i], base + t.o, t.c, k, t.s FROM unnest(p_texts[a:b], p_checksums[a:b]) WITH ORDINALITY AS t(c, s, o)
        ), head AS (
          INSERT INTO drawing (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision, logBytes)
          VALUES (p_names[i], o_revision, false, line_total, circle_total, p_updated, snapshot_at, log_total)
          ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, isDeleted = false,
            lineCount = excluded.lineCount, circleCount = excluded.circleCount, updatedAt = excluded.updatedAt,
            snapshotRevision = excluded.snapshotRevision, logBytes = excluded.logBytes
        )
        INSERT INTO drawingBatch (name, batchKey, revision) SELECT p_names[i], k, o_revision WHERE k IS NOT NULL;
        IF k IS NULL OR k ~ '^[A-Za-z0-9_-]{1,64}$' THEN
          carried := '\(DrawingNotice.Kind.changes.rawValue) ' || o_revision || ' ' || batch_size || ' ' \
    || coalesce(k, '.') || ' ' || p_names[i] || E'\\n' || array_to_string(p_texts[a:b], E'\\n');
          IF octet_length(carried) < 8000 THEN
            PERFORM pg_notify('\(changeChannel)', carried);
          END IF;
        END IF;
        PERFORM pg_notify('\(changeChannel)', '\(DrawingNotice.Kind.append.rawValue) ' || o_revision || ' ' || p_names[i]);
        o_count := batch_size; o_log_count := o_revision - snapshot_at; o_log_bytes := log_total;
        RETURN NEXT;
      END LOOP;
    END
    $$
    """

  /// Brings the database at `url` to the newest schema, in one transaction
  /// under an advisory lock (servers starting together migrate once).
  ///
  /// - Throws: `DrawingStoreError.cannotOpen` if the database holds a
  ///   `drawing` table that no migration made (someone else's), or was
  ///   migrated by a newer TouchTracker.
  static func migrate(_ url: PostgresURL, logger: Logger) async throws {
    let connection = try await PostgresConnection.connect(
      on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(), id: 0,
      logger: logger
    ).get()
    do {
      try await migrate(on: connection, url: url, logger: logger)
      try await connection.close()
    } catch {
      try? await connection.close()
      throw error
    }
  }

  private static func migrate(on connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws {
    try await connection.query("BEGIN", logger: logger)
    do {
      try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
      var hasDrawing = false
      for try await exists in try await connection.query(
        "SELECT to_regclass('drawing') IS NOT NULL", logger: logger
      ).decode(Bool.self) {
        hasDrawing = exists
      }
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          appliedAt timestamptz NOT NULL DEFAULT now()
        )
        """, logger: logger)
      var applied: Set<Int> = []
      for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger)
        .decode(Int32.self)
      {
        applied.insert(Int(version))
      }
      if hasDrawing && applied.isEmpty {
        throw DrawingStoreError.cannotOpen(
          path: url.description,
          reason: "not a TouchTracker database (it has a table 'drawing' but no TouchTracker migrations)")
      }
      if let newest = applied.max(), newest > migrations.last!.version {
        throw DrawingStoreError.cannotOpen(
          path: url.description,
          reason:
            "its schema is at version \(newest), written by a newer TouchTracker (this one knows up to \(migrations.last!.version))"
        )
      }
      for migration in migrations where !applied.contains(migration.version) {
        for statement in migration.statements {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.query(
          "INSERT INTO schema_migrations (version, name) VALUES (\(Int32(migration.version)), \(migration.name))",
          logger: logger)
      }
      try await connection.query("COMMIT", logger: logger)
    } catch {
      try? await connection.query("ROLLBACK", logger: logger)
      throw error
    }
  }
}
