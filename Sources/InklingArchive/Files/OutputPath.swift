// Paths of files we write, split and joined by hand: Foundation's path-string helpers
// (NSString.deletingLastPathComponent and friends) trap on some inputs, such as a
// one-character name, and give nothing a byte-level rule would not.
//
// A path is bytes separated by `/`; the last component is the file's name, everything
// before the last `/` its folder ("." when there is none, "/" for a file at the root).

import Glibc

/// A file path taken apart into its folder and its name.
struct OutputPath: Equatable {
  /// The folder the file is in: "." for a bare name, "/" at the root, never empty.
  var folder: String
  /// The file's name: never empty, never containing `/`.
  var name: String

  /// Splits `path`; nil when it has no file name (empty, or ending in `/`).
  init?(_ path: String) {
    guard !path.isEmpty, path.utf8.last != UInt8(ascii: "/") else { return nil }
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
      folder = "."
      name = path
      return
    }
    let folderPart = String(path[..<slash])
    folder = folderPart.isEmpty ? "/" : folderPart
    name = String(path[path.utf8.index(after: slash)...])
  }

  /// `name` inside `folder` (`./name` for "."), as the folder was given.
  static func joining(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The folder for files made before their place is writable (a copy poured into a FIFO or a
  /// device, whose own folder may be /dev): `$TMPDIR`, else /tmp.
  static var temporaryFolder: String {
    guard let folder = getenv("TMPDIR").map({ String(cString: $0) }), !folder.isEmpty else { return "/tmp" }
    return folder
  }
}
