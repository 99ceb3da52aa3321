// What the program is: its version, read from About/VERSION (the one place the version is
// written: the CLI's --version, the manual page, the Debian package and the notice read it;
// its second line is the version's date, which dates the manual page),
// the notice of the libraries linked in, and the versions those libraries report.
// Both files are embedded at build time, so the tool says the same from any directory.

import InklingFormats
import InklingRendering
import InklingStore
import VideoBridge

/// The program's version, its libraries and their licences.
public enum About {
  /// The version, `MAJOR.MINOR.PATCH` (semantic versioning; CHANGELOG.md has each one).
  public static let version = String(text(PackageResources.VERSION).prefix { !$0.isWhitespace })

  /// The version's date, `YYYY-MM-DD` (the manual page's date): the second line of VERSION.
  public static let date: String = {
    let lines = text(PackageResources.VERSION).split(whereSeparator: \.isNewline)
    return lines.count > 1 ? String(lines[1].prefix { !$0.isWhitespace }) : ""
  }()

  /// THIRD-PARTY-NOTICES.md: every library linked in, its licence, and what the licence of the
  /// binary as a whole means for someone who redistributes it.
  public static let notice: String = text(PackageResources.THIRD_PARTY_NOTICES_md)

  /// The libraries of every layer up to this one, each with the version it reports now.
  public static var libraries: [LinkedLibrary] {
    LinkedLibrary.formats + LinkedLibrary.rendering + LinkedLibrary.store + [
      LinkedLibrary("FFmpeg", String(cString: inkling_ffmpeg_version())),
      LinkedLibrary("libavcodec", LinkedLibrary.dotted(packed: inkling_avcodec_version())),
      LinkedLibrary("libavformat", LinkedLibrary.dotted(packed: inkling_avformat_version())),
      LinkedLibrary("libwebp", LinkedLibrary.dotted(packed: UInt32(inkling_webp_version()))),
      LinkedLibrary("Swift", swiftVersion),
    ]
  }

  /// The language version the program was compiled with; the runtime and FoundationEssentials
  /// come from the same toolchain.
  private static var swiftVersion: String {
    #if compiler(>=6.4)
      "6.4 or later"
    #elseif compiler(>=6.3)
      "6.3"
    #else
      "before 6.3"
    #endif
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
