// The token `serve` keeps between runs: a file only the user can read (0600, in a 0700 folder
// the user owns), ArchiveLocation.stateFolder()/serve-token. Kept, so that the address `serve`
// prints, and one bookmarked from it, stays the same from one run to the next, and so that the
// user of the packaged user unit, whose output goes to the journal, can get the address from
// `serve --print-url` instead. In the state folder rather than $XDG_RUNTIME_DIR, which is
// emptied at logout (the address would change at every login), and which the unit, on a
// read-only file system but for its own folders, could not write; its StateDirectory= is this
// folder.
//
// A file that is not the user's own, or that another account could read, is not trusted: the
// token it holds may be known to someone else, so a new one replaces it. Two `serve` started
// at once make one token: the file appears whole or not at all (link(2) of a written
// temporary file, which fails when the name is taken).

import FoundationEssentials
import Glibc
import InklingArchive

public enum TokenFile {
  /// The file's path in this environment.
  public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    ArchiveLocation.stateFolder(environment: environment) + "/serve-token"
  }

  /// The token kept in the file at `path`, made and kept there first when there is none (or
  /// none that can be trusted).
  ///
  /// - Throws: `ServerError.tokenFile` when the folder or the file cannot be made or read.
  public static func token(at path: String = TokenFile.path()) throws(ServerError) -> String {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    try makePrivateFolder(folder, for: path)
    for _ in 0..<3 {
      if let kept = try read(path) { return kept }
      let token = AccessControl.newToken()
      if try create(path, token: token) { return token }
    }
    throw .tokenFile(path: path, reason: "another process keeps replacing it")
  }

  /// The folder, made 0700 with its missing parents; an existing one of the user's made 0700.
  private static func makePrivateFolder(_ folder: String, for path: String) throws(ServerError) {
    var parents: [String] = []
    var missing = folder
    while !missing.isEmpty, access(missing, F_OK) != 0, errno == ENOENT {
      parents.append(missing)
      missing = String(missing[..<(missing.lastIndex(of: "/") ?? missing.startIndex)])
    }
    for created in parents.reversed() where mkdir(created, 0o700) != 0 && errno != EEXIST {
      throw .tokenFile(path: path, reason: "cannot make \(created): \(String(cString: strerror(errno)))")
    }
    var status = stat()
    guard lstat(folder, &status) == 0 else {
      throw .tokenFile(path: path, reason: "cannot read \(folder): \(String(cString: strerror(errno)))")
    }
    guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
      throw .tokenFile(path: path, reason: "\(folder) is not a folder of this user's own")
    }
    if status.st_mode & 0o077 != 0, chmod(folder, 0o700) != 0 {
      throw .tokenFile(path: path, reason: "cannot make \(folder) private: \(String(cString: strerror(errno)))")
    }
  }

  /// The token in the file; nil when there is none, or when the file cannot be trusted (then
  /// it is removed).
  private static func read(_ path: String) throws(ServerError) -> String? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      if errno == ELOOP { return try remove(path) }
      throw .tokenFile(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
      status.st_mode & 0o077 == 0, status.st_size <= 256
    else { return try remove(path) }
    var bytes = [UInt8](repeating: 0, count: 257)
    let count = Glibc.read(descriptor, &bytes, bytes.count)
    guard count > 0 else { return try remove(path) }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    let token = text.hasSuffix("\n") ? String(text.dropLast()) : text
    return AccessControl.isValidToken(token) ? token : try remove(path)
  }

  private static func remove(_ path: String) throws(ServerError) -> String? {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw .tokenFile(path: path, reason: "cannot replace it: \(String(cString: strerror(errno)))")
    }
    return nil
  }

  /// Writes `token` to the file unless one is there; whether it wrote it.
  private static func create(_ path: String, token: String) throws(ServerError) -> Bool {
    // A name no other process picks; 0600, and O_EXCL refuses one that is there (a link an
    // attacker put in a folder it cannot write anyway).
    let temporary = path + "." + AccessControl.newToken().prefix(12)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .tokenFile(path: path, reason: String(cString: strerror(errno))) }
    defer { unlink(temporary) }
    let bytes = Array((token + "\n").utf8)
    let written = write(descriptor, bytes, bytes.count)
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == bytes.count, synced else {
      throw .tokenFile(path: path, reason: "cannot write it: \(String(cString: strerror(errno)))")
    }
    guard link(temporary, path) == 0 else {
      if errno == EEXIST { return false }
      throw .tokenFile(path: path, reason: String(cString: strerror(errno)))
    }
    return true
  }
}
