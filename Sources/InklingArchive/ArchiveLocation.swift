// Where the archive lives when no --archive is given, as the README and the man page say:
// $INKLING_ARCHIVE, else $XDG_DATA_HOME/inkling-archive/drafts.sqlite, else
// ~/.local/share/inkling-archive/drafts.sqlite. The XDG base directories because they are
// where a Linux desktop, its backup tools and its user look for a program's data, so one
// archive serves every command without a flag; the variable for scripts and tests that keep
// several. What the tool keeps for the user between runs that is not the archive (serve's
// token) is in $XDG_STATE_HOME/inkling-archive, else ~/.local/state/inkling-archive.

import FoundationEssentials
import Glibc

public enum ArchiveLocation {
  /// The archive path for this environment.
  public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    if let path = environment["INKLING_ARCHIVE"], !path.isEmpty { return path }
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      // The XDG spec says relative values are invalid and must be ignored.
      dataHome = xdg
    } else {
      dataHome = home(environment) + "/.local/share"
    }
    return dataHome + "/inkling-archive/drafts.sqlite"
  }

  /// The folder of what the tool keeps for the user between runs (the XDG state folder's).
  public static func stateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    // As for XDG_DATA_HOME, a relative value is ignored.
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/inkling-archive" }
    return home(environment) + "/.local/state/inkling-archive"
  }

  private static func home(_ environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome()
  }

  /// `path` from the root: as it is when it starts with `/`, else under the current folder
  /// (unchanged when that cannot be read), so that a command line naming it works from anywhere.
  public static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/"), let folder = FileManager.default.currentDirectoryPath.nilIfEmpty else { return path }
    return (folder.hasSuffix("/") ? folder : folder + "/") + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
  }

  /// The home folder of the user running the tool, from the user database (as a login
  /// sets $HOME); "/" if it has none.
  private static func accountHome() -> String {
    var size = 16 * 1024
    while size <= 1 << 20 {
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      var buffer = [CChar](repeating: 0, count: size)
      // The entry's strings live in `buffer`: read them while it is there.
      let (code, home) = buffer.withUnsafeMutableBufferPointer { buffer in
        let code = getpwuid_r(getuid(), &entry, buffer.baseAddress!, buffer.count, &found)
        return (code, code == 0 && found != nil ? entry.pw_dir.map { String(cString: $0) } : nil)
      }
      if code == ERANGE {
        size *= 4
        continue
      }
      guard let home, !home.isEmpty else { return "/" }
      return home
    }
    return "/"
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
