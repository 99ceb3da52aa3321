// Writing restored files safely: never over an existing file unless asked, never half a
// file under the final name (a temporary file in the same folder is renamed into place),
// never outside the folder asked for, and with the original modification time.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FileOutput {
  /// A file name that stays inside its folder: the last path component of `name`, with
  /// control characters replaced and names that mean something else (`.`, `..`, empty)
  /// replaced by `fallback`; at most 255 bytes, cut on a character boundary.
  static func safeFileName(_ name: String, fallback: String) -> String {
    var cleaned = String(name.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    cleaned = String(cleaned.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : Character($0) })
    if cleaned.isEmpty || cleaned == "." || cleaned == ".." { cleaned = fallback }
    while cleaned.utf8.count > 255 {
      // Keep the extension: cut from the stem.
      let stem = cleaned.hasSuffix(".inkling") ? String(cleaned.dropLast(8)) : cleaned
      cleaned = String(stem.dropLast()) + (cleaned.hasSuffix(".inkling") ? ".inkling" : "")
    }
    return cleaned
  }

  /// Writes `bytes` to `path` atomically, with modification time `modificationNanoseconds`.
  ///
  /// - Throws: `ArchiveError` when the file exists and `overwrite` is false, or on I/O errors.
  static func write(_ bytes: [UInt8], to path: String, modificationNanoseconds: Int64?, overwrite: Bool)
    throws(ArchiveError)
  {
    if !overwrite && FileManager.default.fileExists(atPath: path) {
      throw ArchiveError(.failed, "\(path) already exists; use --force to replace it")
    }
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary =
      (folder.isEmpty ? "." : folder) + "/.\(name.prefix(64)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw ioError("cannot create a file in \(folder.isEmpty ? "." : folder)") }
    var written = 0
    var failure: ArchiveError?
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 {
        if errno == EINTR { continue }
        failure = ioError("cannot write \(path)")
        break
      }
      written += count
    }
    if failure == nil, fsync(descriptor) != 0 { failure = ioError("cannot write \(path)") }
    if failure == nil, let modificationNanoseconds {
      var times = [
        timespec(
          tv_sec: time_t(modificationNanoseconds / 1_000_000_000), tv_nsec: Int(modificationNanoseconds % 1_000_000_000)
        ),
        timespec(
          tv_sec: time_t(modificationNanoseconds / 1_000_000_000), tv_nsec: Int(modificationNanoseconds % 1_000_000_000)
        ),
      ]
      if futimens(descriptor, &times) != 0 { failure = ioError("cannot set the modification time of \(path)") }
    }
    close(descriptor)
    if failure == nil {
      if overwrite {
        if rename(temporary, path) != 0 { failure = ioError("cannot write \(path)") }
      } else if link(temporary, path) != 0 {
        // link() refuses to replace an existing file, which rename() would do silently.
        failure =
          errno == EEXIST
          ? ArchiveError(.failed, "\(path) already exists; use --force to replace it")
          : ioError("cannot write \(path)")
      }
    }
    unlink(temporary)
    if let failure { throw failure }
  }

  static func ioError(_ what: String) -> ArchiveError {
    ArchiveError(.failed, "\(what): \(String(cString: strerror(errno)))")
  }

  /// Creates a folder and its parents when missing.
  static func makeFolder(_ path: String) throws(ArchiveError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw ArchiveError(.failed, "cannot create the folder \(path): \(error.localizedDescription)")
    }
  }
}
