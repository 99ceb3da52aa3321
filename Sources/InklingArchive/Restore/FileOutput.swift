// Writing restored files and images safely: never over an existing file unless asked, never
// half a file under the final name (a temporary file in the same folder is renamed into
// place), never outside the folder asked for, and with the original modification time.
// Standard output is a destination too (`-o -`): the bytes and nothing else go there.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a file's bytes go.
public enum OutputTarget: Sendable, Equatable {
  /// A file at this path.
  case file(String)
  /// The process's standard output.
  case standardOutput

  /// `-` is standard output, as for cat, tar and curl; anything else a path.
  public init(argument: String) {
    self = argument == "-" ? .standardOutput : .file(argument)
  }

  /// The path, or `-` for standard output.
  public var path: String {
    switch self {
    case .file(let path): path
    case .standardOutput: "-"
    }
  }
}

enum FileOutput {
  /// Writes `bytes` to `target`: atomically, with modification time `modificationNanoseconds`
  /// when it is a file, and on the disk before its name appears when `durable`.
  ///
  /// - Throws: `ArchiveError.destinationExists` when the file exists and `overwrite` is false,
  ///   `.destinationIsFolder` when the path names a folder, `.fileSystem` on I/O errors.
  static func write(
    _ bytes: [UInt8], to target: OutputTarget, modificationNanoseconds: Int64?, overwrite: Bool, durable: Bool = true
  ) throws(ArchiveError) {
    switch target {
    case .standardOutput: try writeAll(bytes, to: STDOUT_FILENO, path: "standard output")
    case .file(let path):
      try writeFile(
        bytes, to: path, modificationNanoseconds: modificationNanoseconds, overwrite: overwrite, durable: durable)
    }
  }

  private static func writeFile(
    _ bytes: [UInt8], to path: String, modificationNanoseconds: Int64?, overwrite: Bool, durable: Bool
  ) throws(ArchiveError) {
    guard let parts = OutputPath(path), !isFolder(path) else { throw .destinationIsFolder(path: path) }
    if !overwrite && exists(path) { throw .destinationExists(path: path) }
    let temporary = temporaryPath(for: parts)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .fileSystem(path: parts.folder, operation: .create, code: errno) }
    var failure: ArchiveError?
    do {
      try writeAll(bytes, to: descriptor, path: path)
      if durable && fsync(descriptor) != 0 { throw ArchiveError.fileSystem(path: path, operation: .write, code: errno) }
      if let modificationNanoseconds {
        let time = timespec(
          tv_sec: time_t(modificationNanoseconds / 1_000_000_000), tv_nsec: Int(modificationNanoseconds % 1_000_000_000)
        )
        var times = [time, time]
        if futimens(descriptor, &times) != 0 {
          throw ArchiveError.fileSystem(path: path, operation: .setModificationTime, code: errno)
        }
      }
    } catch let error as ArchiveError {
      failure = error
    } catch {
      preconditionFailure("only archive errors are thrown above")
    }
    close(descriptor)
    if failure == nil {
      if overwrite {
        if rename(temporary, path) != 0 { failure = .fileSystem(path: path, operation: .replace, code: errno) }
      } else if link(temporary, path) != 0 {
        // link() refuses to replace a file that appeared meanwhile, which rename() would do silently.
        failure =
          errno == EEXIST ? .destinationExists(path: path) : .fileSystem(path: path, operation: .write, code: errno)
      }
    }
    unlink(temporary)
    if let failure { throw failure }
  }

  /// A new name beside `parts` for the temporary file a write goes through.
  static func temporaryPath(for parts: OutputPath) -> String {
    // The name is cut by bytes, not characters: the temporary name must fit NAME_MAX too.
    let stem = String(decoding: parts.name.utf8.prefix(64), as: UTF8.self)
    return OutputPath.joining(parts.folder, ".\(stem).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
  }

  /// Writes every byte, retrying short writes and interruptions.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(ArchiveError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
        #else
          Darwin.write(descriptor, raw.baseAddress! + written, raw.count - written)
        #endif
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw .fileSystem(path: path, operation: .write, code: errno)
      }
      written += count
    }
  }

  /// Creates a folder and its parents when missing (`mkdir -p`).
  static func makeFolder(_ path: String) throws(ArchiveError) {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    guard !path.isEmpty, !isFolder(path) else { return }
    if let parent = OutputPath(path)?.folder, parent != path, parent != "." && parent != "/" {
      try makeFolder(parent)
    }
    if mkdir(path, 0o755) != 0 && !(errno == EEXIST && isFolder(path)) {
      throw .fileSystem(path: path, operation: .createFolder, code: errno)
    }
  }

  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
