// The libraries the renderer links, with the versions they report (see LinkedLibrary).

import CCairo
import CFontconfig
import CFreeType
import CHarfBuzz
import InklingFormats
import PNGBridge

extension LinkedLibrary {
  /// libpng (PNG in and out), FreeType (glyphs), HarfBuzz (shaping), fontconfig (finding fonts),
  /// cairo (PDF).
  public static var rendering: [LinkedLibrary] {
    [
      LinkedLibrary("libpng", String(cString: inkling_png_version())),
      LinkedLibrary("FreeType", freeTypeVersion()),
      LinkedLibrary("HarfBuzz", String(cString: hb_version_string())),
      LinkedLibrary("fontconfig", fontconfigVersion()),
      LinkedLibrary("cairo", String(cString: cairo_version_string())),
    ]
  }

  /// FreeType reports its version only through a library instance.
  private static func freeTypeVersion() -> String {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
    defer { FT_Done_FreeType(library) }
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    FT_Library_Version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }

  /// FcGetVersion packs major · 10000 + minor · 100 + revision.
  private static func fontconfigVersion() -> String {
    let packed = FcGetVersion()
    return "\(packed / 10000).\(packed / 100 % 100).\(packed % 100)"
  }
}
