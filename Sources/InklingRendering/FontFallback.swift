// Which font files text is drawn from: an ordered list of Noto faces, each found through
// fontconfig by its family name or else at the path Debian installs it to, and, for a
// character none of them has, the face fontconfig proposes for it.
//
// Invariants:
// 1. `sources` keeps the order of `FontFallback.noto`: a character is drawn from the first
//    face that has it (TextRenderer), so Latin comes from Noto Sans even though the Arabic
//    and CJK faces carry Latin letters too.
// 2. A family found neither way is listed in `missing` with the package that ships it; it is
//    never an error by itself. Text needs at least one face (`TextError.noFont`).
// 3. Looking fonts up never fails loudly: fontconfig that cannot start, or knows nothing,
//    leaves the Debian paths.

import CFontconfig

#if canImport(Glibc)
  import Glibc
#endif

/// One font face in a file: a `.ttf`/`.otf`, or face `index` of a `.ttc` collection.
public struct FontSource: Hashable, Sendable, CustomStringConvertible {
  public var family: String
  public var path: String
  public var index: Int

  public init(family: String, path: String, index: Int = 0) {
    self.family = family
    self.path = path
    self.index = index
  }

  public var description: String { index == 0 ? "\(family) (\(path))" : "\(family) (\(path), face \(index))" }
}

/// A font family the text machinery looks for, and where Debian puts it.
public struct FontRequest: Hashable, Sendable {
  public var family: String
  /// The Debian package that installs it.
  public var package: String
  /// Where that package puts it, used when fontconfig does not know the family.
  public var debianPath: String
  public var debianIndex: Int

  public init(family: String, package: String, debianPath: String, debianIndex: Int = 0) {
    self.family = family
    self.package = package
    self.debianPath = debianPath
    self.debianIndex = debianIndex
  }
}

/// The ordered faces text is drawn from, and the families that were not found.
///
/// ```swift
/// let fonts = FontFallback.system
/// if !fonts.missing.isEmpty { print("not installed:", fonts.missing.map(\.package)) }
/// let text = try TextRenderer(fonts: fonts)
/// ```
public struct FontFallback: Hashable, Sendable {
  public var sources: [FontSource]
  public var missing: [FontRequest]
  /// Whether a character no source has may be looked up through fontconfig.
  public var asksFontconfig: Bool

  public init(sources: [FontSource], missing: [FontRequest] = [], asksFontconfig: Bool = false) {
    self.sources = sources
    self.missing = missing
    self.asksFontconfig = asksFontconfig
  }

  static let truetype = "/usr/share/fonts/truetype/noto/"
  static let opentype = "/usr/share/fonts/opentype/noto/"

  /// The families looked for, in the order characters are matched to them: Latin, Greek and
  /// Cyrillic, then the scripts Noto Sans leaves out, CJK (kana, han, hangul), symbols, and
  /// colour emoji (tried first for a character shown as emoji).
  public static let noto: [FontRequest] = [
    FontRequest(family: "Noto Sans", package: "fonts-noto-core", debianPath: truetype + "NotoSans-Regular.ttf"),
    FontRequest(
      family: "Noto Sans Arabic", package: "fonts-noto-core", debianPath: truetype + "NotoSansArabic-Regular.ttf"),
    FontRequest(
      family: "Noto Sans Hebrew", package: "fonts-noto-core", debianPath: truetype + "NotoSansHebrew-Regular.ttf"),
    FontRequest(
      family: "Noto Sans Devanagari", package: "fonts-noto-core",
      debianPath: truetype + "NotoSansDevanagari-Regular.ttf"),
    FontRequest(
      family: "Noto Sans Thai", package: "fonts-noto-core", debianPath: truetype + "NotoSansThai-Regular.ttf"),
    FontRequest(
      family: "Noto Sans CJK JP", package: "fonts-noto-cjk", debianPath: opentype + "NotoSansCJK-Regular.ttc",
      debianIndex: 0),
    FontRequest(
      family: "Noto Sans Symbols", package: "fonts-noto-core", debianPath: truetype + "NotoSansSymbols-Regular.ttf"),
    FontRequest(
      family: "Noto Sans Symbols2", package: "fonts-noto-core",
      debianPath: truetype + "NotoSansSymbols2-Regular.ttf"),
    FontRequest(
      family: "Noto Color Emoji", package: "fonts-noto-color-emoji", debianPath: truetype + "NotoColorEmoji.ttf"),
  ]

  /// The Noto faces of this machine, found once per process; characters none of them has
  /// are looked up through fontconfig.
  public static let system: FontFallback = resolve(noto, fontconfig: true)

  /// Finds each of `requests`: through fontconfig by family name (when `fontconfig`), else
  /// at its Debian path when a file is there, else it goes into `missing`.
  public static func resolve(_ requests: [FontRequest], fontconfig: Bool = true) -> FontFallback {
    let useFontconfig = fontconfig && Fontconfig.start()
    var sources: [FontSource] = []
    var missing: [FontRequest] = []
    for request in requests {
      if useFontconfig, let found = Fontconfig.regularFace(family: request.family) {
        sources.append(found)
      } else if access(request.debianPath, R_OK) == 0 {
        sources.append(FontSource(family: request.family, path: request.debianPath, index: request.debianIndex))
      } else {
        missing.append(request)
      }
    }
    return FontFallback(sources: sources, missing: missing, asksFontconfig: useFontconfig)
  }
}

// MARK: - fontconfig

/// The few fontconfig queries the fallback needs, on fontconfig's current configuration.
enum Fontconfig {
  /// Loads the configuration once; false when fontconfig cannot start.
  static func start() -> Bool { started }
  private static let started: Bool = FcInit() == FcTrue

  /// The upright, regular-weight face of `family`, when fontconfig lists one.
  static func regularFace(family: String) -> FontSource? {
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    guard addString(pattern, FC_FAMILY, family), let objects = FcObjectSetCreate() else { return nil }
    defer { FcObjectSetDestroy(objects) }
    for object in [FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_WIDTH] { _ = FcObjectSetAdd(objects, object) }
    guard let set = FcFontList(nil, pattern, objects) else { return nil }
    defer { FcFontSetDestroy(set) }
    // The closest to regular, upright, normal width; among equals the first fontconfig
    // lists, then the lowest face index, so a choice does not depend on directory order.
    var best: (score: Int, source: FontSource)?
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i], let path = string(font, FC_FILE) else { continue }
      let index = integer(font, FC_INDEX) ?? 0
      guard index >> 16 == 0 else { continue }  // a named instance of a variable font
      let weight = integer(font, FC_WEIGHT) ?? Int(FC_WEIGHT_REGULAR)
      let slant = integer(font, FC_SLANT) ?? Int(FC_SLANT_ROMAN)
      let width = integer(font, FC_WIDTH) ?? Int(FC_WIDTH_NORMAL)
      let score = abs(weight - Int(FC_WEIGHT_REGULAR)) * 4 + abs(slant) * 8 + abs(width - Int(FC_WIDTH_NORMAL))
      let source = FontSource(family: family, path: path, index: index)
      if best == nil || score < best!.score || (score == best!.score && index < best!.source.index) {
        best = (score, source)
      }
    }
    return best?.source
  }

  /// The face fontconfig would use for `scalar` next to Noto Sans, when one has it.
  static func face(for scalar: Unicode.Scalar) -> FontSource? {
    guard start(), let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    guard let charset = FcCharSetCreate() else { return nil }
    defer { FcCharSetDestroy(charset) }
    guard addString(pattern, FC_FAMILY, "Noto Sans"), FcCharSetAddChar(charset, scalar.value) == FcTrue,
      FcPatternAddCharSet(pattern, FC_CHARSET, charset) == FcTrue
    else { return nil }
    guard FcConfigSubstitute(nil, pattern, FcMatchPattern) == FcTrue else { return nil }
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let set = FcFontSort(nil, pattern, FcTrue, nil, &result) else { return nil }
    defer { FcFontSetDestroy(set) }
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      var has: OpaquePointer?
      guard FcPatternGetCharSet(font, FC_CHARSET, 0, &has) == FcResultMatch, let has,
        FcCharSetHasChar(has, scalar.value) == FcTrue, let path = string(font, FC_FILE)
      else { continue }
      return FontSource(family: string(font, FC_FAMILY) ?? path, path: path, index: integer(font, FC_INDEX) ?? 0)
    }
    return nil
  }

  private static func addString(_ pattern: OpaquePointer, _ object: String, _ value: String) -> Bool {
    Array(value.utf8CString).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: FcChar8.self) { FcPatternAddString(pattern, object, $0.baseAddress) == FcTrue }
    }
  }

  private static func string(_ pattern: OpaquePointer, _ object: String) -> String? {
    var value: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else { return nil }
    return String(cString: value)
  }

  private static func integer(_ pattern: OpaquePointer, _ object: String) -> Int? {
    var value: Int32 = 0
    guard FcPatternGetInteger(pattern, object, 0, &value) == FcResultMatch else { return nil }
    return Int(value)
  }
}
