// Checkpoints of the archive's WAL on a thread of their own while an import writes, so that
// the writing thread, the import's critical path, never copies pages from the WAL into the
// database file itself (SQLite's automatic checkpoint runs in the commit that crosses its
// threshold, on the committing thread: https://www.sqlite.org/wal.html#automatic_checkpoint).
//
// States: running (each commit asks for a checkpoint, which this thread runs on its own
// connection, PASSIVE: it never waits for or blocks the writer or a reader; the writer's
// automatic checkpoint waits for a WAL of `walPages`, where it finds the pages copied
// already: it is what keeps the WAL bounded, since the WAL starts over only at a write
// transaction that finds it all copied, and the writer begins its next batch at once) →
// finished (`finish()`: the thread has ended, and the writer's automatic checkpoints are
// SQLite's again). Invariant: whatever happens to this thread,
// the archive is the same; a checkpoint only moves committed pages from one file to the other,
// and one that fails or never runs leaves them in the WAL, where every reader finds them and
// the next checkpoint (any connection's) copies them.

import InklingStore

final class BackgroundCheckpoint {
  private let writer: Database
  private let requests = BlockingQueue<Void>(capacity: 1)
  private var thread: SystemThread?
  /// The writer's own checkpoint threshold meanwhile: 64 MiB of 4 KiB pages.
  static let walPages = 16_384

  /// Starts checkpointing the archive of `writer` on another connection, opened on the
  /// thread (a connection stays on the thread that uses it). Should the thread not start, or
  /// its connection not open, the pages stay in the WAL: the writer's own checkpoints take
  /// over at once in the first case, at `finish()` in the second.
  init(writer: Database) throws {
    self.writer = writer
    let requests = requests
    let path = writer.path
    thread = try? SystemThread(stackSize: 1 << 20) {
      guard let checkpointer = try? Database(path: path, mode: .readWrite) else { return }
      defer { checkpointer.close() }
      // A failed checkpoint leaves the pages in the WAL (see the file comment): the next
      // request tries again, and the writer's own checkpoints resume at `finish()`.
      while requests.pop() != nil { try? checkpointer.checkpointPassively() }
    }
    guard thread != nil else { return }
    do {
      try writer.checkpointAfterCommits(atPages: Self.walPages)
    } catch {
      finish()
      throw error
    }
  }

  /// Asks for a checkpoint after a commit; one already asked for and not begun covers it.
  func request() { _ = requests.pushUnlessFull(()) }

  /// Ends the thread after the checkpoint in hand and turns the writer's automatic
  /// checkpoints on again.
  func finish() {
    requests.close()
    thread?.join()
    thread = nil
    try? writer.checkpointAfterCommits()
  }

  deinit { finish() }
}
