// The default source label of an import (migration 0013): the folder the files were imported
// from, as an absolute path, so that two devices' folders ("/media/anna/Drafts",
// "/media/ben/Drafts") are told apart and `source:anna` finds the first.
//
// Paths are made absolute and tidied lexically (no `.`, `..` resolved against the text, no
// repeated or trailing `/`), never through the file system: a label names where the person
// pointed, even through a symbolic link, and costs no system call.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum SourceLabel {
  /// The label of files imported from `path` as given: the folder itself, or the folder a
  /// file is in.
  static func of(_ path: String, in workingDirectory: String) -> String {
    let absolute = absolute(path, in: workingDirectory)
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return absolute }
    guard let slash = absolute.lastIndex(of: "/") else { return absolute }
    return slash == absolute.startIndex ? "/" : String(absolute[..<slash])
  }

  /// `path` made absolute against `workingDirectory` and tidied lexically.
  static func absolute(_ path: String, in workingDirectory: String) -> String {
    let full = path.hasPrefix("/") ? path : workingDirectory + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
