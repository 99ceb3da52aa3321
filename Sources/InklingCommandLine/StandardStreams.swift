// Writing text to stdout and stderr, unbuffered, from any thread.
//
// `write(2)` is used directly: the C `stderr` global is not concurrency-safe in Swift 6, and
// FileHandle offers nothing over a write loop here. EINTR is retried; a closed pipe ends the
// write silently (there is nobody left to tell).

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
    write(text, to: 1)
  }

  /// Writes `text` to standard error.
  package static func writeError(_ text: String) {
    write(text, to: 2)
  }

  private static func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
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
