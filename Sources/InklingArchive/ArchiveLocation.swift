// Where the archive lives when no --archive is given (../shared/docs/product.md):
// $INKLING_ARCHIVE, else $XDG_DATA_HOME/inkling-archive/drafts.sqlite, else
// ~/.local/share/inkling-archive/drafts.sqlite.

import Foundation

public enum ArchiveLocation {
  /// The archive path for this environment.
  public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    if let path = environment["INKLING_ARCHIVE"], !path.isEmpty { return path }
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      // The XDG spec says relative values are invalid and must be ignored.
      dataHome = xdg
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      dataHome = home + "/.local/share"
    }
    return dataHome + "/inkling-archive/drafts.sqlite"
  }
}
