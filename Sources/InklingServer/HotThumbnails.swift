// Cached thumbnails' answers kept in memory: the grid's most frequent request answered without
// SQLite (its read lock, the trash check, the PNG's pages read from the file). An answer is
// used only while it is certainly still the archive's:
//   - the archive's files were not written since it was read (ArchiveWrites: the count it was
//     read under), so no draft went to the trash or came back and no version was purged;
//   - the path still names the file it was read from (FileIdentity, as every request checks);
//   - it was read at most `trust` ago: what ArchiveWrites cannot see (a file system shared
//     with another machine) is noticed that late at most.
// Bounded by bytes: entries are admitted while there is room and leave when stale, never to
// make room, so that a client cycling through more thumbnails than fit still finds those that
// do (evicting the oldest would leave none it meets again).

import InklingArchive
import Synchronization

final class HotThumbnails: Sendable {
  struct Answer: Sendable {
    let tag: String
    let draftInTrash: Bool
    let png: [UInt8]
  }

  private struct Key: Hashable {
    var version: VersionID
    var size: Int
  }

  private struct Entry {
    let answer: Answer
    let file: FileIdentity
    let read: ContinuousClock.Instant
  }

  private struct State {
    /// The ArchiveWrites count the entries were read under.
    var writes: UInt64 = 0
    var entries: [Key: Entry] = [:]
    var bytes = 0
    /// When the stale entries were last removed to make room.
    var swept = ContinuousClock.now
  }

  private let state = Mutex(State())
  let limit: Int
  let trust: Duration

  init(limit: Int, trust: Duration = .seconds(1)) {
    self.limit = limit
    self.trust = trust
  }

  /// The answer for version `version` at `size`, if one is kept that is still the archive's.
  func answer(_ version: VersionID, size: Int, file: FileIdentity, writes: UInt64) -> Answer? {
    let now = ContinuousClock.now
    return state.withLock { state in
      guard state.writes == writes else {
        state = State(writes: writes)
        return nil
      }
      let key = Key(version: version, size: size)
      guard let entry = state.entries[key] else { return nil }
      guard entry.file == file, now - entry.read <= trust else {
        state.entries[key] = nil
        state.bytes -= entry.answer.png.count
        return nil
      }
      return entry.answer
    }
  }

  /// Keeps `answer`, read under the ArchiveWrites count `writes` (taken before the archive was
  /// read) from `file`, when there is room.
  func keep(_ answer: Answer, version: VersionID, size: Int, file: FileIdentity, writes: UInt64) {
    let now = ContinuousClock.now
    state.withLock { state in
      if state.writes != writes {
        // Read under another count: only when it is the newest may it start the memory anew.
        guard writes > state.writes else { return }
        state = State(writes: writes)
      }
      if state.bytes + answer.png.count > limit, now - state.swept > trust {
        state.entries = state.entries.filter { now - $0.value.read <= trust }
        state.bytes = state.entries.values.reduce(0) { $0 + $1.answer.png.count }
        state.swept = now
      }
      guard state.bytes + answer.png.count <= limit else { return }
      let key = Key(version: version, size: size)
      state.bytes -= state.entries[key]?.answer.png.count ?? 0
      state.entries[key] = Entry(answer: answer, file: file, read: now)
      state.bytes += answer.png.count
    }
  }
}
