// Writing restored files and images safely: never over an existing file unless asked, never
// half a file under the final name (a temporary file in the same folder is renamed into
// place), never outside the folder asked for, and with the original modification time.
// Only paths: standard output (`-o -`) is the command line's to write, with bytes it asks
// for (the library never writes to the process's streams).
//
// What a path names decides how it is written, as for cp and curl, whose users
// expect a FIFO or device to be written into and only a regular file to be replaced:
//   1. nothing: a new regular file is made there;
//   2. a regular file: it is replaced, atomically, only when overwriting was asked;
//   3. a symbolic link: it is followed, and its target is what rules 1, 2 and 4 apply to
//      (the link itself stays);
//   4. anything else that is not a folder (a FIFO, a device, a socket): the bytes are
//      written into it as it is, with no temporary file, no sync and no time set. It is
//      never replaced by a regular file, so `-o /dev/null --force` leaves /dev/null a device.
// Rules 3 and 4 are for a path the person named. A file whose name the program chose in a
// folder (`restore --to`, `timelapse --frames`) is written only where nothing or a regular
// file has the name (`FileOutput.Naming.chosenInFolder`): a link planted in a shared folder
// under a name the archive will use must not send the bytes elsewhere, as export's files.
//
// Every file made here is created 0600, never wider and narrowed later: on a computer with
// other accounts a temporary file in a shared folder ($TMPDIR) or beside the target would
// otherwise be readable while it is written, and the finished file is the user's own.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FileOutput {
  /// Who named the file written.
  enum Naming {
    /// The person, with `-o`: rules 1–4.
    case given
    /// The program, in a folder the person named: rules 1 and 2 only.
    case chosenInFolder
  }

  /// Writes `bytes` to `path`: atomically, with modification time `modificationNanoseconds`
  /// when it is a regular file, and on the disk before its name appears when `durable`.
  ///
  /// - Throws: `ArchiveError.destinationExists` when the file exists and `overwrite` is false,
  ///   `.destinationIsFolder` when the path names a folder, `.destinationNotRegularFile` when
  ///   something other than a regular file has a name `.chosenInFolder`, `.fileSystem` on I/O
  ///   errors.
  static func write(
    _ bytes: [UInt8], to path: String, modificationNanoseconds: Int64?, overwrite: Bool, durable: Bool = true,
    naming: Naming = .given
  ) throws(ArchiveError) {
    if naming == .chosenInFolder { try refuseAnythingButARegularFile(at: path) }
    let target: String
    switch try destination(path) {
    case .folder: throw .destinationIsFolder(path: path)
    case .special:
      if try writeInto(path, bytes, truncating: false) { return }
      // It became a regular file between the look and the open: rule 2 applies.
      guard overwrite, case .regularFile(let resolved) = try destination(path) else {
        throw .destinationExists(path: path)
      }
      target = resolved
    case .regularFile(let resolved):
      guard overwrite else { throw .destinationExists(path: path) }
      target = resolved
    case .unlinkedFile:
      guard overwrite else { throw .destinationExists(path: path) }
      _ = try writeInto(path, bytes, truncating: true)
      return
    case .absent(let resolved): target = resolved
    }
    guard let parts = OutputPath(target) else { throw .destinationIsFolder(path: path) }
    let temporary = temporaryPath(for: parts)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
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
        // Only a regular file or nothing may be renamed over (rule 4): check again at the
        // last moment, so a FIFO or device that took the name meanwhile is not replaced.
        if case .special = try destination(target) {
          failure = .destinationExists(path: path)
        } else if rename(temporary, target) != 0 {
          failure = .fileSystem(path: path, operation: .replace, code: errno)
        }
      } else if link(temporary, target) != 0 {
        // link() refuses to replace a file that appeared meanwhile, which rename() would do silently.
        failure =
          errno == EEXIST ? .destinationExists(path: path) : .fileSystem(path: path, operation: .write, code: errno)
      }
    }
    unlink(temporary)
    if let failure { throw failure }
  }

  /// Throws `.destinationNotRegularFile` when something other than a regular file is at
  /// `path` itself. What appears there after this look is still never written through: a
  /// new file is linked into place, which fails on any name taken, and a regular file is
  /// renamed over, which replaces a link rather than following it.
  private static func refuseAnythingButARegularFile(at path: String) throws(ArchiveError) {
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFREG else { throw .destinationNotRegularFile(path: path) }
    } else if errno != ENOENT {
      throw .fileSystem(path: path, operation: .write, code: errno)
    }
  }

  /// What a write to a path meets, symbolic links followed.
  enum Destination: Equatable {
    /// Nothing: a new file is made at this path (the last link's target when it was a link).
    case absent(String)
    /// A regular file at this path (the last link's target when it was a link).
    case regularFile(String)
    case folder
    /// A FIFO, a device or a socket: written into, never replaced.
    case special
    /// A regular file reached only through one of the kernel's own links (`/dev/fd/N` of a
    /// file since removed): with overwriting, emptied and written into, as there is no name
    /// to rename over.
    case unlinkedFile
  }

  /// What `path` names (rules 1-4 above).
  ///
  /// - Throws: `ArchiveError.destinationIsFolder` for a path without a file name,
  ///   `.fileSystem` when links loop or the path cannot be looked at.
  static func destination(_ path: String) throws(ArchiveError) -> Destination {
    guard OutputPath(path) != nil else { throw .destinationIsFolder(path: path) }
    var info = stat()
    if stat(path, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFDIR: return .folder
      case S_IFREG:
        // The kernel's own links (/dev/fd/N, /proc/self/fd/N) can name a file that no
        // path reaches any more.
        let resolved = try followingLinks(path)
        var resolvedInfo = stat()
        guard lstat(resolved, &resolvedInfo) == 0, resolvedInfo.st_ino == info.st_ino,
          resolvedInfo.st_dev == info.st_dev
        else { return .unlinkedFile }
        return .regularFile(resolved)
      default: return .special
      }
    }
    guard errno == ENOENT else { throw .fileSystem(path: path, operation: .write, code: errno) }
    // Absent, or a link to something absent: the file is made where the last link points.
    return .absent(try followingLinks(path))
  }

  /// `path` with its last component's symbolic links followed, as many as the kernel would
  /// (40): the path of what is not a link, which need not exist.
  private static func followingLinks(_ path: String) throws(ArchiveError) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count >= 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
      let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard let parts = OutputPath(current) else { return current }
      current = link.hasPrefix("/") ? link : OutputPath.joining(parts.folder == "." ? "" : parts.folder, link)
    }
    throw .fileSystem(path: path, operation: .write, code: ELOOP)
  }

  /// Writes `bytes` into what is at `path` as it is (rule 4); false, having written nothing,
  /// when it turns out to be a regular file once it is open, unless `truncating`.
  private static func writeInto(_ path: String, _ bytes: [UInt8], truncating: Bool) throws(ArchiveError) -> Bool {
    // No O_CREAT, and O_TRUNC only when a regular file is meant: opening must neither make a
    // file nor empty one that took the name since it was looked at. A FIFO's open waits for
    // a reader, as a shell's would.
    let flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncating ? O_TRUNC : 0)
    var descriptor: Int32
    repeat { descriptor = open(path, flags) } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
    guard truncating || (info.st_mode & S_IFMT) != S_IFREG else { return false }
    try writeAll(bytes, to: descriptor, path: path)
    return true
  }

  // MARK: - Files another library writes

  /// A new empty file, private to the user, for another library (a video encoder) to write
  /// before `place` moves it to `path`: beside the file it will become (a link's target), or
  /// in `$TMPDIR` (else /tmp) when its bytes are to be copied into a FIFO or a device instead,
  /// or kept (`path` nil). The caller removes it.
  ///
  /// - Throws: `ArchiveError.destinationIsFolder`, or `.destinationExists` when the file is
  ///   there and `overwrite` is false, so that nothing is made for a write that must fail.
  static func temporaryFile(for path: String?, overwrite: Bool) throws(ArchiveError) -> String {
    var temporary = temporaryPath(for: OutputPath(OutputPath.joining(OutputPath.temporaryFolder, "timelapse"))!)
    if let path {
      switch try checkWritable(path, overwrite: overwrite) {
      case .absent(let resolved), .regularFile(let resolved): temporary = temporaryPath(for: OutputPath(resolved)!)
      default: break
      }
    }
    // Made here, empty and private, for the other library to write into: it would create
    // the file with the umask's mode, readable by every account while it is written.
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .fileSystem(path: OutputPath(temporary)?.folder ?? temporary, operation: .create, code: errno)
    }
    close(descriptor)
    return temporary
  }

  /// Refuses, before any work, a write to `path` that `write` would refuse, and says what the
  /// path names.
  ///
  /// - Throws: `ArchiveError.destinationIsFolder`, or `.destinationExists` unless `overwrite`.
  @discardableResult
  static func checkWritable(_ path: String, overwrite: Bool) throws(ArchiveError) -> Destination {
    let found = try destination(path)
    switch found {
    case .folder: throw .destinationIsFolder(path: path)
    case .regularFile, .unlinkedFile: if !overwrite { throw .destinationExists(path: path) }
    case .absent, .special: break
    }
    return found
  }

  /// Moves the finished file `temporary` to `path` by the rules at the top of this file:
  /// linked into place (renamed over a regular file when `overwrite`), or its bytes copied
  /// into a FIFO or a device; `temporary` is gone after.
  ///
  /// - Throws: `ArchiveError.destinationExists` when a file appeared at the path meanwhile,
  ///   `.fileSystem` when it cannot be read, moved or written.
  static func place(_ temporary: String, at path: String, overwrite: Bool) throws(ArchiveError) {
    defer { unlink(temporary) }
    switch try checkWritable(path, overwrite: overwrite) {
    case .folder: throw .destinationIsFolder(path: path)
    case .special, .unlinkedFile:
      let flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (overwrite ? O_TRUNC : 0)
      var descriptor: Int32
      repeat { descriptor = open(path, flags) } while descriptor < 0 && errno == EINTR
      guard descriptor >= 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
      defer { close(descriptor) }
      try copy(temporary, to: descriptor, path: path)
    case .regularFile(let resolved):
      if rename(temporary, resolved) != 0 { throw .fileSystem(path: path, operation: .replace, code: errno) }
    case .absent(let resolved):
      if link(temporary, resolved) != 0 {
        throw errno == EEXIST ? .destinationExists(path: path) : .fileSystem(path: path, operation: .write, code: errno)
      }
    }
  }

  /// The bytes of the file another library wrote at `path`.
  static func contents(of path: String) throws(ArchiveError) -> [UInt8] {
    let input = open(path, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .fileSystem(path: path, operation: .read, code: errno) }
    defer { close(input) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw .fileSystem(path: path, operation: .read, code: errno) }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }

  /// Copies the file at `source` into `descriptor`.
  private static func copy(_ source: String, to descriptor: Int32, path: String) throws(ArchiveError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .fileSystem(path: source, operation: .read, code: errno) }
    defer { close(input) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw .fileSystem(path: source, operation: .read, code: errno) }
      if count == 0 { return }
      try writeAll(Array(buffer[0..<count]), to: descriptor, path: path)
    }
  }

  /// A new name beside `parts` for the temporary file a write goes through.
  static func temporaryPath(for parts: OutputPath) -> String {
    OutputPath.joining(parts.folder, Leftovers.temporaryName(for: parts.name, .file))
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

  /// Copies the file at `source` into the FIFO or device at `path` (rule 4), for a copy too
  /// big to hold in memory.
  ///
  /// - Throws: `ArchiveError.destinationExists` when `path` is a regular file once open,
  ///   `.fileSystem` when either cannot be opened, read or written.
  static func pour(from source: String, into path: String) throws(ArchiveError) {
    var output: Int32
    repeat { output = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) } while output < 0 && errno == EINTR
    guard output >= 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
    defer { close(output) }
    var info = stat()
    guard fstat(output, &info) == 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
    guard (info.st_mode & S_IFMT) != S_IFREG else { throw .destinationExists(path: path) }
    try forEachPiece(of: source, size: 1 << 20) { (piece) throws(ArchiveError) in
      try writeAll(piece, to: output, path: path)
    }
  }

  /// Reads the file at `source` to its end, handing `body` each piece of at most `size` bytes.
  static func forEachPiece(
    of source: String, size: Int, _ body: ([UInt8]) throws(ArchiveError) -> Void
  ) throws(ArchiveError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .fileSystem(path: source, operation: .read, code: errno) }
    defer { close(input) }
    var buffer = [UInt8](repeating: 0, count: size)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .fileSystem(path: source, operation: .read, code: errno)
      }
      if count == 0 { return }
      try body(Array(buffer.prefix(count)))
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

  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
