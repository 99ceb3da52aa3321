// Linux inotify through Glibc (inotify(7)): one instance, a watch per folder, and the events
// read from its descriptor. The descriptor is non-blocking; the watch loop waits for it with
// poll(2), so nothing here ever sleeps or wakes up by itself.
//
// Every watch of an instance gets the same mask (adding a watch to a folder already watched
// replaces its mask, so one mask for all keeps every use of a folder served); the watch
// command's, unless the instance is made with another (ArchiveWrites.swift):
//   IN_CLOSE_WRITE  a file written and closed: complete;
//   IN_MOVED_TO     a file or folder renamed into place (how the app and sync tools write);
//   IN_CREATE       a file or folder created (a folder is watched and scanned at once, since
//                   files can land in it before its watch exists; a file waits to settle);
//   IN_MODIFY       a file written to (in place: it waits to settle, or for its close);
//   IN_DELETE_SELF, IN_MOVE_SELF  the folder itself went away or moved;
// and the kernel adds IN_IGNORED (a watch ended), IN_UNMOUNT and IN_Q_OVERFLOW (events lost).

#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
  import InklingFormats

  final class Inotify {
    let descriptor: Int32
    /// What every watch of this instance reports.
    let watchMask: UInt32
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    static let mask = UInt32(
      IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// One event; `name` is the entry inside the watched folder (nil for the folder itself).
    struct Event {
      let watch: Int32
      let mask: UInt32
      let name: String?

      func has(_ flag: some BinaryInteger) -> Bool { mask & UInt32(truncatingIfNeeded: flag) != 0 }
      var isFolder: Bool { has(IN_ISDIR) }
    }

    /// - Throws: `ArchiveError.WatchProblem` (the instance limit, or another failure).
    init(mask: UInt32 = Inotify.mask) throws(ArchiveError.WatchProblem) {
      watchMask = mask
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else {
        throw errno == EMFILE
          ? .instanceLimit(limit: Self.limit("max_inotify_instances")) : .system(call: "inotify_init1", code: errno)
      }
      self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Watches `folder`; returns its watch descriptor (the same one again for a folder, or
    /// another path to it, already watched).
    ///
    /// - Throws: `.watchLimit` when the per-user limit of watches is reached (ENOSPC),
    ///   `.missing`, `.notAFolder`, or `.system`.
    func watch(_ folder: String) throws(ArchiveError.WatchProblem) -> Int32 {
      let watch = inotify_add_watch(descriptor, folder, watchMask)
      guard watch >= 0 else {
        switch errno {
        case ENOSPC: throw .watchLimit(limit: Self.limit("max_inotify_watches"))
        case ENOENT: throw .missing
        case ENOTDIR: throw .notAFolder
        case let code: throw .system(call: "inotify_add_watch", code: code)
        }
      }
      return watch
    }

    /// Ends a watch (the kernel then sends IN_IGNORED for it).
    func remove(_ watch: Int32) {
      inotify_rm_watch(descriptor, watch)
    }

    /// The events waiting now; empty when there are none (the descriptor never blocks).
    func events() -> [Event] {
      var events: [Event] = []
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return events }
        buffer.withUnsafeBytes { raw in
          var offset = 0
          let header = MemoryLayout<inotify_event>.size
          while offset + header <= count {
            let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            var name: String?
            if length > 0 {
              let bytes = raw[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
              name = String(decoding: bytes, as: UTF8.self)
            }
            events.append(Event(watch: watch, mask: mask, name: name))
            offset += header + length
          }
        }
      }
    }

    /// An inotify limit, for the sentence that says to raise it: the user namespace's own
    /// (/proc/sys/user/, the same as fs.inotify's outside any other namespace).
    static func limit(_ name: String) -> Int? {
      let descriptor = open("/proc/sys/user/" + name, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes = [UInt8](repeating: 0, count: 32)
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      return Int(String(decoding: bytes.prefix(count), as: UTF8.self).trimmingWhitespace())
    }
  }
#endif
