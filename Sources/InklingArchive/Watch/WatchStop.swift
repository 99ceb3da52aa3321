// How a watch is asked to stop: a self-pipe. `request()` writes one byte, which is all a
// signal handler may do (write(2) is async-signal-safe; signal-safety(7)), and the watch loop
// polls the read end beside the inotify descriptor, so a stop wakes it wherever it waits;
// the import it may be running asks `isRequested` after each commit.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request to stop watching, from another thread or a signal handler.
public final class WatchStop: @unchecked Sendable {
  // @unchecked: the two descriptors never change after init; the pipe itself is the
  // synchronisation.
  /// The end a signal handler writes to (one byte; see `request()`).
  public let writeDescriptor: Int32
  let readDescriptor: Int32

  /// - Throws: `ArchiveError.cannotWatch` when the pipe cannot be made (too many open files).
  public init() throws(ArchiveError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw .cannotWatch(path: "", reason: .system(call: "pipe", code: errno))
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    readDescriptor = ends[0]
    writeDescriptor = ends[1]
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Asks the watch to stop after the batch it is writing commits. Safe from any thread.
  public func request() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Whether a stop was asked for (the byte stays in the pipe: asking again gives true).
  public var isRequested: Bool {
    var entry = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }
}
