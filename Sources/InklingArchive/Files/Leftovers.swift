// What a killed run leaves behind: every file this program writes is made whole under a
// temporary name beside its target (FileOutput.temporaryPath, ExportManifest, backup) and
// only then renamed, so a SIGKILL or a power cut can leave one of those temporary files, of
// the full size for a backup. A later run that writes into the same folder removes those of
// its own kind: a name that this program gives, a regular file of this user, and the
// process id in its name no longer running. A run still writing keeps its files.

import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum Leftovers {
  /// The temporary files a run makes, as their names say.
  enum Kind {
    /// `.NAME.PID.RANDOM.tmp`: a file of restore, export, the images and the manifest.
    case file
    /// `.NAME.backup-PID-RANDOM.tmp`, and SQLite's `-journal`, `-wal`, `-shm` beside it.
    case backup
  }

  /// Removes from `folder` the leftovers of `kind` of processes that have ended, those of
  /// files named `name` only when it is given; returns how many were removed. Errors are
  /// ignored: a leftover that cannot be removed is no reason to stop the run.
  @discardableResult
  static func remove(_ kind: Kind, in folder: String, name: String? = nil) -> Int {
    var removed = 0
    for entry in hiddenEntries(of: folder.isEmpty ? "." : folder) {
      guard let pid = processID(in: entry, kind: kind, name: name), !isRunning(pid) else { continue }
      let path = OutputPath.joining(folder, entry)
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
      if unlink(path) == 0 { removed += 1 }
    }
    return removed
  }

  /// The names in `folder` that start with a dot, as every temporary name does: read with
  /// readdir(3), only those made into strings (a restore into a folder of many files pays
  /// for one pass over its entries, not for a string of each).
  private static func hiddenEntries(of folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let isHidden = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
      guard isHidden else { continue }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The process id in a temporary name of `kind`, nil for any other name.
  static func processID(in entry: String, kind: Kind, name: String?) -> Int32? {
    var rest = Substring(entry.dropFirst())
    switch kind {
    case .file:
      guard rest.hasSuffix(".tmp") else { return nil }
      rest = rest.dropLast(4)
      let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count >= 3, UInt32(parts[parts.count - 1]) != nil, let pid = Int32(parts[parts.count - 2]) else {
        return nil
      }
      let stem = parts.dropLast(2).joined(separator: ".")
      return stem.isEmpty || name.map({ stem != Self.stem($0) }) == true ? nil : pid
    case .backup:
      for suffix in ["-journal", "-wal", "-shm"] where rest.hasSuffix(".tmp" + suffix) {
        rest = rest.dropLast(suffix.count)
      }
      guard rest.hasSuffix(".tmp"), let marker = rest.ranges(of: ".backup-").last else { return nil }
      let stem = rest[..<marker.lowerBound]
      let numbers = rest[marker.upperBound...].dropLast(4).split(separator: "-")
      guard numbers.count == 2, UInt32(numbers[1]) != nil, let pid = Int32(numbers[0]) else { return nil }
      return stem.isEmpty || name.map({ String(stem) != Self.stem($0) }) == true ? nil : pid
    }
  }

  /// The temporary name of a file `name` of `kind` made by this process, which `processID`
  /// reads back. The name is cut by bytes, not characters: it must fit NAME_MAX too.
  static func temporaryName(for name: String, _ kind: Kind) -> String {
    let random = UInt32.random(in: 0...UInt32.max)
    return switch kind {
    case .file: ".\(stem(name)).\(getpid()).\(random).tmp"
    case .backup: ".\(stem(name)).backup-\(getpid())-\(random).tmp"
    }
  }

  /// The part of a file name a temporary name keeps: its first 64 bytes.
  private static func stem(_ name: String) -> String {
    String(decoding: name.utf8.prefix(64), as: UTF8.self)
  }

  /// Whether a process with this id runs (kill(2) with signal 0: EPERM means it runs as
  /// someone else).
  private static func isRunning(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    if pid == getpid() { return true }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}
