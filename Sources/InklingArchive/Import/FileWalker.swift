// Finds the draft files under the paths given to `import`.
//
// Folders are walked depth first with an explicit stack (no recursion that a deep tree can
// drive), following symbolic links but never entering a folder twice: (device, inode)
// pairs of the folders entered are remembered, which also breaks symlink loops. Only
// `*.inkling` regular files are candidates; everything else is counted as ignored or
// reported as a problem, and nothing here opens a file, so a FIFO cannot block the walk.

import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A candidate draft file.
struct DraftFileEntry: Sendable {
  let path: String
  /// Which of the paths given to the walk it was found under (their index).
  let origin: Int
  var fileName: String
  var name: DraftFileName
  let size: Int64
  let modificationNanoseconds: Int64
  /// What the manifest of an export in its folder says the file is (EarlierExport.swift):
  /// believed when the file has the bytes it lists.
  var exported: EarlierExport.File? = nil

  /// The draft it belongs to, as the walk groups files.
  var draftName: String { exported?.draft ?? name.draftName }
}

/// What the walk found besides candidates.
enum WalkEvent: Sendable {
  /// Versions of one draft found in one folder, sorted by file name: all of them, unless the
  /// folder is very large and other drafts' files sort between them (DraftGroups).
  case drafts([DraftFileEntry])
  /// A path that was left alone; `named` when it is one of the paths the import was given.
  case ignored(path: String, reason: IgnoredReason, named: Bool)
  /// A path that looked like a draft file but cannot be one.
  case problem(path: String, problem: ImportProblem)
}

struct FileWalker {
  let maximumFileSize: Int64
  /// Asked before each path and each folder entry: once true, the walk ends where it is (an
  /// import that stops must not wait for the stat of a large folder it will not import).
  var isStopped: () -> Bool = { false }
  /// How many of a folder's names are read at once (FolderNames).
  var batchSize = FolderNames.batchSize

  /// Walks `paths` in order, handing each folder's findings to `emit` as they are found.
  /// Files named one by one (what `watch` hands over) are grouped by draft until the next
  /// folder, so that a draft's new saves are prepared together, each a delta of the one
  /// before, as when its folder is walked.
  func walk(_ paths: [String], emit: (WalkEvent) throws -> Void) rethrows {
    var entered = Set<FileIdentity>()
    var given: [String: [DraftFileEntry]] = [:]
    var order: [String] = []
    for (origin, path) in paths.enumerated() {
      if isStopped() { return }
      var info = stat()
      guard stat(path, &info) == 0 else {
        try emit(.problem(path: path, problem: Self.statFailure(path, errno)))
        continue
      }
      if Self.isDirectory(info) {
        for draft in order { try emit(.drafts(given[draft]!)) }
        (given, order) = ([:], [])
        guard !entered.contains(FileIdentity(info)) else {
          try emit(.ignored(path: path, reason: .alreadySearched, named: true))
          continue
        }
        try walkFolder(path, origin: origin, &entered, emit)
      } else {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        if let entry = try candidate(path: path, origin: origin, fileName: fileName, info: info, named: true, emit) {
          if given[entry.draftName] == nil { order.append(entry.draftName) }
          given[entry.draftName, default: []].append(entry)
        }
      }
    }
    for draft in order { try emit(.drafts(given[draft]!)) }
  }

  private func walkFolder(
    _ root: String, origin: Int, _ entered: inout Set<FileIdentity>, _ emit: (WalkEvent) throws -> Void
  ) rethrows {
    var pending = [root]
    while !isStopped(), let folder = pending.popLast() {
      var info = stat()
      guard stat(folder, &info) == 0 else {
        try emit(.problem(path: folder, problem: Self.statFailure(folder, errno)))
        continue
      }
      // A symbolic link back to a folder searched already: its files are in this import.
      guard entered.insert(FileIdentity(info)).inserted else {
        try emit(.ignored(path: folder, reason: .alreadySearched, named: folder == root))
        continue
      }
      // A folder an export wrote: its manifest says which draft and save each file is.
      let exported = EarlierExport.inFolder(folder)?.draftFilesByName
      var groups = DraftGroups()
      var subfolders: [String] = []
      var stopped = false
      let listed = try FolderNames.forEachBatch(in: folder, batchSize: batchSize) { names in
        for raw in names {
          if isStopped() {
            stopped = true
            return false
          }
          let path = folder.hasSuffix("/") ? folder + raw.display : folder + "/" + raw.display
          guard let name = raw.text else {
            try emit(.problem(path: path, problem: .invalidFileName))
            continue
          }
          if name == ExportManifest.fileName, exported != nil { continue }
          var entryInfo = stat()
          if stat(path, &entryInfo) != 0 {
            let error = errno
            if DraftFileName.isDraftFileName(name) || error == ELOOP {
              try emit(.problem(path: path, problem: Self.statFailure(path, error)))
            } else {
              try emit(.ignored(path: path, reason: .notADraftFile, named: false))
            }
            continue
          }
          if Self.isDirectory(entryInfo) {
            if DraftFileName.isDraftFileName(name) {
              try emit(.problem(path: path, problem: .folderNamedLikeADraft))
            }
            subfolders.append(path)
            continue
          }
          guard
            var entry = try candidate(
              path: path, origin: origin, fileName: name, info: entryInfo, named: false, emit)
          else {
            continue
          }
          entry.exported = exported?[name]
          try groups.add(entry, emit)
        }
        return true
      }
      if stopped { return }
      guard listed else {
        try emit(.problem(path: folder, problem: .cannotRead(code: errno)))
        continue
      }
      try groups.emitAll(emit)
      // Reversed so that the stack pops subfolders in name order.
      pending.append(contentsOf: subfolders.reversed())
    }
  }

  /// The draft whose save `fileName` stands for when it is an iCloud Drive placeholder:
  /// iCloud writes `.NAME.icloud` in place of a file `NAME` it has not downloaded.
  static func iCloudPlaceholder(_ fileName: String) -> String? {
    guard fileName.hasPrefix("."), fileName.lowercased().hasSuffix(".inkling.icloud") else { return nil }
    return DraftFileName(String(fileName.dropFirst().dropLast(".icloud".count)))?.draftName
  }

  /// The entry for a draft file, or nil after reporting why it is not one.
  private func candidate(
    path: String, origin: Int, fileName: String, info: stat, named: Bool, _ emit: (WalkEvent) throws -> Void
  ) rethrows -> DraftFileEntry? {
    // AppleDouble files (`._Cat.inkling`) are macOS metadata left on foreign disks.
    guard !fileName.hasPrefix("._") else {
      try emit(.ignored(path: path, reason: .appleDouble, named: named))
      return nil
    }
    if let draft = Self.iCloudPlaceholder(fileName) {
      try emit(.ignored(path: path, reason: .notDownloaded(draft: draft), named: named))
      return nil
    }
    guard let name = DraftFileName(fileName) else {
      // A file in a folder may be anything; one named by the caller was meant as a draft.
      try emit(
        named
          ? .problem(path: path, problem: .namedNotADraftFile)
          : .ignored(path: path, reason: .notADraftFile, named: false))
      return nil
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      try emit(.problem(path: path, problem: .notRegularFile))
      return nil
    }
    guard Int64(info.st_size) <= maximumFileSize else {
      try emit(.problem(path: path, problem: .tooLarge(size: Int64(info.st_size), limit: maximumFileSize)))
      return nil
    }
    let nanoseconds = FileTime.nanoseconds(info.st_mtim)
    return DraftFileEntry(
      path: path, origin: origin, fileName: fileName, name: name, size: Int64(info.st_size),
      modificationNanoseconds: nanoseconds)
  }

  /// A folder's draft files grouped by draft as they are met in name order. A draft's files
  /// share its name as their prefix, so they come together; the groups are handed on once they
  /// hold more than a few thousand files, all but the draft being met, so that a folder of a
  /// million files is never held whole.
  struct DraftGroups {
    static let limit = 2_048
    private var found: [String: [DraftFileEntry]] = [:]
    private var order: [String] = []
    private var count = 0

    mutating func add(_ entry: DraftFileEntry, _ emit: (WalkEvent) throws -> Void) rethrows {
      let draft = entry.draftName
      if found[draft] == nil { order.append(draft) }
      found[draft, default: []].append(entry)
      count += 1
      guard count >= Self.limit, order.count > 1 else { return }
      for earlier in order.dropLast() { try emit(.drafts(found.removeValue(forKey: earlier)!)) }
      order = [draft]
      count = found[draft]!.count
    }

    mutating func emitAll(_ emit: (WalkEvent) throws -> Void) rethrows {
      for draft in order { try emit(.drafts(found[draft]!)) }
      (found, order, count) = ([:], [], 0)
    }
  }

  // MARK: - POSIX helpers

  struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// A directory entry's name: its text when valid UTF-8, and a printable form in any case.
  struct RawName {
    let text: String?
    let display: String
  }

  /// The entries of a folder, sorted by their bytes, or nil when it cannot be read.
  static func list(_ folder: String) -> [RawName]? {
    var names: [RawName] = []
    let listed = FolderNames.forEachBatch(in: folder) { batch in
      names.append(contentsOf: batch)
      return true
    }
    return listed ? names : nil
  }

  /// A name that is not UTF-8, with its invalid bytes written `\xFF`.
  static func escaped(_ bytes: [UInt8]) -> String {
    var result = ""
    var index = 0
    while index < bytes.count {
      var end = index + 1
      while end <= bytes.count, end - index <= 4 {
        if let text = String(validating: bytes[index..<end], as: UTF8.self) {
          result += text
          index = end
          break
        }
        end += 1
      }
      if end > bytes.count || end - index > 4 {
        result += "\\x" + String(bytes[index], radix: 16, uppercase: true)
        index += 1
      }
    }
    return result
  }

  static func isDirectory(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }

  /// The process's working directory (getcwd), "/" if it cannot be read.
  static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func statFailure(_ path: String, _ error: Int32) -> ImportProblem {
    var link = stat()
    if error == ENOENT, lstat(path, &link) == 0 { return .brokenLink }
    if error == ELOOP { return .linkLoop }
    return .cannotRead(code: error)
  }
}

extension DraftFileName {
  /// Whether a file name ends in `.inkling`, without parsing the rest.
  static func isDraftFileName(_ fileName: String) -> Bool {
    fileName.utf8.count > 8 && fileName.lowercased().hasSuffix(".inkling")
  }
}
