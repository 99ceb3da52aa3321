// Checkpoints of the archive's WAL on a thread of their own while an import writes, so that
// the writing thread, the import's critical path, never copies pages from the WAL into the
// database file itself (SQLite's automatic checkpoint runs in the commit that crosses its
// threshold, on the committing thread: https://www.sqlite.org/wal.html#automatic_checkpoint).
//
// States: running (the writer's automatic checkpoints are off; each commit asks for a
// checkpoint, which this thread runs on its own connection, PASSIVE: it never waits for or
// blocks the writer or a reader) → finished (`finish()`: the thread has ended, and the
// writer's automatic checkpoints are on again). Invariant: whatever happens to this thread,
// the archive is the same; a checkpoint only moves committed pages from one file to the other,
// and one that fails or never runs leaves them in the WAL, where every reader finds them and
// the next checkpoint (any connection's) copies them.

import InklingStore

final class BackgroundCheckpoint {
  private let writer: Database
  private let requests = BlockingQueue<Void>(capacity: 1)
  private var thread: SystemThread?

  /// Starts checkpointing the archive of `writer` on another connection, opened on the
  /// thread (a connection stays on the thread that uses it). Should it not open, the thread
  /// ends, and the pages stay in the WAL until `finish()` turns the writer's checkpoints on.
  init(writer: Database) throws {
    self.writer = writer
    try writer.checkpointsAfterCommits(false)
    let requests = requests
    let path = writer.path
    thread = SystemThread(stackSize: 1 << 20) {
      guard let checkpointer = try? Database(path: path, mode: .readWrite) else { return }
      defer { checkpointer.close() }
      // A failed checkpoint leaves the pages in the WAL (see the file comment): the next
      // request tries again, and the writer's own checkpoints resume at `finish()`.
      while requests.pop() != nil { try? checkpointer.checkpointPassively() }
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
    try? writer.checkpointsAfterCommits(true)
  }

  deinit { finish() }
}
