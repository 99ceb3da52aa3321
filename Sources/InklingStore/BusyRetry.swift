// Waiting out another process's lock a little longer than SQLite's busy timeout, and only
// where retrying is safe.
//
// The busy timeout (ArchiveDatabase.busyTimeout) covers most waits: SQLite sleeps and
// retries inside the call. A few paths return SQLITE_BUSY without calling the busy handler,
// or after it gave up while the lock was about to be released: a connection that opens while
// another runs WAL recovery or a migration (SQLITE_BUSY_RECOVERY), a journal-mode change
// racing another process creating the same archive, a COMMIT that finds the WAL index being
// rebuilt (SQLITE_BUSY_RECOVERY, SQLite's "Write-Ahead Logging").
// `BusyRetry.run` repeats such a step with jittered exponential backoff until `bound`
// seconds have passed, then gives up with a sentence that says how long it waited, so that
// no raw "database is locked" reaches a person while another command is simply working.
//
// Invariants:
//   1. Only steps that have no effect when they fail with SQLITE_BUSY are retried: opening,
//      `BEGIN IMMEDIATE`, `COMMIT` (a failed COMMIT leaves the transaction open, and may be
//      retried: SQLite's "Transaction"), single autocommit statements.
//   2. The total wait is bounded: about `bound` seconds, the busy timeouts inside it included,
//      and the last one started before the bound may end past it.

import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

package enum BusyRetry {
  /// How long to keep retrying a busy step, in seconds, its calls' busy timeouts included.
  package static let bound: Double = 30

  /// Runs `body`, retrying it while it fails with a `.busy` StoreError, for at most
  /// `bound` seconds.
  ///
  /// - Throws: what `body` throws; a `.busy` error after the bound says how long it waited.
  package static func run<T>(bound: Double = BusyRetry.bound, _ body: () throws -> T) throws -> T {
    let started = Date()
    var delay = 0.01
    while true {
      do {
        return try body()
      } catch let error as StoreError where error.kind == .busy {
        let waited = Date().timeIntervalSince(started)
        guard waited < bound else { throw gaveUp(error, after: waited) }
        // Jitter, so that two processes backing off do not wake up in step.
        let sleep = min(delay * Double.random(in: 0.5...1.5), bound - waited)
        usleep(useconds_t(max(sleep, 0.001) * 1_000_000))
        delay = min(delay * 2, 0.5)
      }
    }
  }

  /// `seconds` is the whole wait: it was measured around the calls, busy timeouts included.
  /// The statement stays in `sql`, out of the sentence a person reads.
  private static func gaveUp(_ error: StoreError, after seconds: Double) -> StoreError {
    StoreError(
      kind: .busy, code: error.code, message: "for more than \(Int(seconds)) s, SQLite error \(error.code)",
      sql: error.sql, path: error.path)
  }
}
