// What is already at a path an export is about to write: nothing, a regular file (and its
// SHA-256, so that a re-export can tell its own file from another), or something else. The
// file is opened with O_NOFOLLOW: a symbolic link is "something else" and never read through,
// so a link planted in the folder cannot make an export read, or compare against, a file
// outside it. Export never writes through one either, nor over one: in a folder where the
// tool picks the names, only a regular file is ever replaced (with --force).

import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum ExistingFile: Equatable {
  /// Nothing has the name.
  case none
  /// A regular file with these contents.
  case file(size: Int64, sha256: [UInt8])
  /// A folder, a symbolic link, a device, or a file that cannot be read.
  case other

  /// What is at `path`; a regular file of `expectedSize` bytes is hashed, any other size
  /// is not (it differs anyway, and its hash is not needed).
  static func at(_ path: String, expectedSize: Int64) -> ExistingFile {
    var info = stat()
    guard lstat(path, &info) == 0 else { return errno == ENOENT ? .none : .other }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return .other }
    let size = Int64(info.st_size)
    guard size == expectedSize else { return .file(size: size, sha256: []) }
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return .other }
    defer { close(descriptor) }
    var hasher = SHA256Hasher()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var total: Int64 = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .other
      }
      if count == 0 { break }
      total += Int64(count)
      buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }
    return .file(size: total, sha256: hasher.finalize())
  }

  /// Whether `path` names a regular file itself (not through a link), or nothing.
  static func isRegularOrAbsent(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0 else { return errno == ENOENT }
    return (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Whether this is a regular file holding exactly the bytes of `sha256` and `size`.
  func holds(size expected: Int64, sha256 expectedHash: [UInt8]) -> Bool {
    if case .file(let size, let sha256) = self { return size == expected && sha256 == expectedHash }
    return false
  }
}
