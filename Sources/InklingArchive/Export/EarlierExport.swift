// The files earlier exports left in a folder, as the manifest there lists them.
//
// Export reads it so that a new export into the same folder describes the whole folder and
// tells its own earlier files from someone else's: a version keeps the name an earlier run
// gave it, no other version is given one of those names, and the files it does not write
// again stay in the manifest while they hold the bytes it lists. Import reads it so that
// exporting a folder and importing it again gives back the same drafts, save times and file
// names, not new drafts for names the export had to change (ExportReport.RenamedFile).
//
// A manifest is only a hint: one that is not ours, not valid, too large or a symbolic link
// is read as none, and every entry is believed only for a file that still has its bytes.

import FoundationEssentials
import InklingFormats
import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct EarlierExport: Sendable {
  /// One file of an earlier export, as the manifest lists it: what the export wrote it as.
  typealias File = ExportWriter.File

  /// The most bytes of a manifest read: a few hundred bytes a file, for millions of files.
  static let largestManifest = 1 << 30

  let files: [File]

  /// The manifest in `folder`, or nil when there is none that this build wrote.
  static func inFolder(_ folder: String) -> EarlierExport? {
    guard let bytes = readManifest(OutputPath.joining(folder, ExportManifest.fileName)),
      let listing = try? JSONDecoder().decode(Listing.self, from: Data(bytes)),
      listing.manifest == "inkling-archive export", listing.version == 1
    else { return nil }
    return EarlierExport(
      files: listing.files.compactMap { entry in
        guard let kind = ExportWriter.File.Kind(rawValue: entry.kind),
          let saved = ISO8601DateTime(entry.saved)?.millisecondsSince1970,
          let sha256 = hexBytes(entry.sha256), sha256.count == 32, entry.size >= 0,
          FolderNaming.safeName(entry.file, fallback: "") == entry.file
        else { return nil }
        return File(
          draft: entry.draft, version: entry.version, savedMilliseconds: saved, name: entry.file, kind: kind,
          size: entry.size, sha256: sha256, renamedFrom: entry.renamedFrom)
      })
  }

  /// The draft files it lists, by name in the folder.
  var draftFilesByName: [String: File] {
    var byName: [String: File] = [:]
    for file in files where file.kind == .inkling { byName[file.name] = file }
    return byName
  }

  // MARK: - Reading

  private struct Listing: Decodable {
    struct Entry: Decodable {
      let draft: String
      let version: Int
      let saved: String
      let file: String
      let kind: String
      let size: Int64
      let sha256: String
      let renamedFrom: String?
    }
    let manifest: String
    let version: Int
    let files: [Entry]
  }

  /// A regular file's bytes, not through a link, at most `largestManifest` of them.
  static func readManifest(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= largestManifest else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    guard ExportManifest.readFully(descriptor, &bytes) == bytes.count else { return nil }
    return bytes
  }
}

extension ExportWriter.File {
  /// The name the version was imported with (ArchivedVersion's file name).
  var importedName: String { renamedFrom ?? name }
}

/// What a new export into a folder makes of the earlier export's files still there.
final class EarlierFilesInFolder {
  private struct VersionKey: Hashable {
    let draft: String
    let savedMilliseconds: Int64
    let sha256: [UInt8]
  }

  /// The files the earlier manifest lists that are in the folder as regular files of the
  /// listed size (their bytes are checked when they are met, or when they are carried over).
  let files: [EarlierExport.File]
  private var unclaimed: [VersionKey: String] = [:]
  private let pictures: Set<String>
  /// The names of `files` the new manifest does not list (yet): only the earlier export's
  /// names are kept, never one per file the new export writes.
  private var notYetListed: Set<String>

  init(folder: String) {
    files = (EarlierExport.inFolder(folder)?.files ?? []).filter { file in
      var info = stat()
      return lstat(OutputPath.joining(folder, file.name), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        && Int64(info.st_size) == file.size
    }
    for file in files.reversed() where file.kind == .inkling {
      unclaimed[VersionKey(draft: file.draft, savedMilliseconds: file.savedMilliseconds, sha256: file.sha256)] =
        file.name
    }
    pictures = Set(files.filter { $0.kind != .inkling }.map(\.name))
    notYetListed = Set(files.map(\.name))
  }

  /// The name an earlier export gave this version's file, given out once.
  func claim(draft: String, savedMilliseconds: Int64, sha256: [UInt8]) -> String? {
    unclaimed.removeValue(forKey: VersionKey(draft: draft, savedMilliseconds: savedMilliseconds, sha256: sha256))
  }

  /// Whether an earlier export wrote a picture with this name.
  func hasPicture(named name: String) -> Bool { pictures.contains(name) }

  /// Notes that the new manifest lists `name`.
  func listed(_ name: String) { notYetListed.remove(name) }

  /// The earlier files the new export has not listed, in the earlier manifest's order.
  var notListedAgain: [EarlierExport.File] { files.filter { notYetListed.contains($0.name) } }
}
