// The C libraries a layer links, each asked for its own version at run time: the static
// binary carries its libraries inside, so only they can say which ones a user has
// (`inkling-archive --version --verbose`, and what a bug report should quote).

import CUtf8proc
import CZlib

/// A library linked into the program and the version it reports of itself.
public struct LinkedLibrary: Sendable, Equatable {
  /// The library's name as its project spells it ("SQLite", "libpng").
  public let name: String
  /// The version it reports at run time.
  public let version: String

  public init(_ name: String, _ version: String) {
    self.name = name
    self.version = version
  }

  /// The libraries of InklingFormats: zlib (gzip-wrapped drawings) and utf8proc (NFC names).
  public static var formats: [LinkedLibrary] {
    [
      LinkedLibrary("zlib", String(cString: zlibVersion())),
      LinkedLibrary("utf8proc", String(cString: utf8proc_version())),
    ]
  }

  /// `major.minor.patch` of a version packed as `(major << 16) | (minor << 8) | patch`, as
  /// FFmpeg's AV_VERSION_INT and libwebp pack theirs.
  public static func dotted(packed: UInt32) -> String {
    "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
  }
}
