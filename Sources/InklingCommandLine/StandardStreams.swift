// Writing text to stdout and stderr, unbuffered, from any thread.
//
// `write(2)` is used directly: the C `stderr` global is not concurrency-safe in Swift 6, and
// FileHandle offers nothing over a write loop here. EINTR is retried; a closed pipe ends the
// writing of text silently (there is nobody left to tell), while a file's bytes (`-o -`) say
// why they could not all be written, so that the command fails rather than seem to succeed.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

package enum StandardStreams {
  /// Writes `text` to standard output.
  package static func writeOutput(_ text: String) {
    _ = write(Array(text.utf8), to: 1)
  }

  /// Writes `text` to standard error.
  package static func writeError(_ text: String) {
    _ = write(Array(text.utf8), to: 2)
  }

  /// Whether `path` names the file standard output is open on (`/dev/stdout`,
  /// `/proc/self/fd/1`, or the terminal, FIFO or file it is): a command that wrote its data
  /// there says what it wrote on standard error, not after the data.
  package static func isStandardOutput(path: String) -> Bool {
    var file = stat()
    var output = stat()
    return !path.isEmpty && stat(path, &file) == 0 && fstat(1, &output) == 0 && file.st_dev == output.st_dev
      && file.st_ino == output.st_ino
  }

  /// Writes `bytes` to standard output (a file's, for `-o -`); the `errno` of a write that
  /// failed, else nil.
  package static func writeOutput(_ bytes: [UInt8]) -> Int32? {
    write(bytes, to: 1)
  }

  /// Writes every byte, retrying short writes and interruptions; the `errno` of the write
  /// that failed, else nil.
  private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var bytes = bytes
    return bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return written < 0 ? errno : EIO
        }
      }
      return nil
    }
  }

  private static func systemWrite(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int)
    -> Int
  {
    #if canImport(Glibc)
      Glibc.write(fd, pointer, count)
    #elseif canImport(Musl)
      Musl.write(fd, pointer, count)
    #else
      Darwin.write(fd, pointer, count)
    #endif
  }
}
