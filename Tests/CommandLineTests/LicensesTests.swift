// The licence notice must name every C library Package.swift links, so that a library added to
// the build cannot ship without its licence; and `--version --verbose` must report each of them.

import Foundation
import InklingTestSupport
import Testing

@Suite struct LicensesTests {
  /// How the notice names each library Package.swift links (by pkg-config or link name).
  static let noticeNames: [String: [String]] = [
    "sqlite3": ["SQLite"], "libzstd": ["zstd"], "libcrypto": ["OpenSSL libcrypto"], "zlib": ["zlib"],
    "libutf8proc": ["utf8proc"], "utf8proc": ["utf8proc"], "libpng16": ["libpng"], "freetype2": ["FreeType"],
    "harfbuzz": ["HarfBuzz"], "fontconfig": ["fontconfig", "expat"], "libmicrohttpd": ["libmicrohttpd"],
    "libavformat": ["libavformat", "x264"], "avcodec": ["libavcodec"], "swscale": ["libswscale"],
    "avutil": ["libavutil"], "webpmux": ["libwebpmux"], "libwebpmux": ["libwebpmux"], "webp": ["libwebp"],
    "crypto": ["OpenSSL libcrypto"], "avformat": ["libavformat"], "freetype": ["FreeType"],
    "microhttpd": ["libmicrohttpd"], "png16": ["libpng"], "z": ["zlib"], "zstd": ["zstd"],
  ]

  /// The pkg-config and linked library names in Package.swift.
  static func linkedNames() throws -> Set<String> {
    let manifest = try String(contentsOfFile: PackageFolder.path("Package.swift"), encoding: .utf8)
    var names = Set<String>()
    for pattern in [#"pkgConfig: "([^"]+)""#, #"\.linkedLibrary\("([^"]+)"\)"#, #"link "([^"]+)""#] {
      let expression = try NSRegularExpression(pattern: pattern)
      for match in expression.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
        names.insert(String(manifest[Range(match.range(at: 1), in: manifest)!]))
      }
    }
    // Module maps name the libraries of the targets without pkg-config.
    let modules = try FileManager.default.contentsOfDirectory(atPath: PackageFolder.path("Sources/C"))
    for module in modules {
      guard
        let map = try? String(
          contentsOfFile: PackageFolder.path("Sources/C/\(module)/module.modulemap"), encoding: .utf8)
      else { continue }
      let expression = try NSRegularExpression(pattern: #"link "([^"]+)""#)
      for match in expression.matches(in: map, range: NSRange(map.startIndex..., in: map)) {
        names.insert(String(map[Range(match.range(at: 1), in: map)!]))
      }
    }
    return names
  }

  @Test func theNoticeNamesEveryLinkedLibrary() throws {
    let notice = try ChildProcess.run([BuiltProducts.inklingArchive, "licenses"])
    #expect(notice.status == 0)
    let linked = try Self.linkedNames()
    #expect(linked.contains("sqlite3") && linked.contains("avcodec"), "the manifest was read: \(linked)")
    for name in linked.sorted() {
      guard let named = Self.noticeNames[name] else {
        Issue.record("Package.swift links \(name): add it to THIRD-PARTY-NOTICES.md and to noticeNames")
        continue
      }
      for library in named { #expect(notice.stdout.contains(library), "the notice names \(library)") }
    }
    for text in ["Apache License, Version 2.0", "GPL, version 2 or later", "LGPL-2.1", "glibc", "Swift runtime"] {
      #expect(notice.stdout.contains(text), "the notice says \(text)")
    }
  }

  @Test func versionVerboseListsTheLibrariesWithVersions() throws {
    let version = try String(
      contentsOfFile: PackageFolder.path("Sources/InklingArchive/About/VERSION"), encoding: .utf8
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    let plain = try ChildProcess.run([BuiltProducts.inklingArchive, "--version"])
    #expect(plain.stdout == "inkling-archive \(version)\n")
    let verbose = try ChildProcess.run([BuiltProducts.inklingArchive, "--version", "--verbose"])
    #expect(verbose.status == 0)
    let lines = verbose.stdout.split(separator: "\n")
    #expect(lines.first.map(String.init) == "inkling-archive \(version)")
    for library in ["SQLite", "zstd", "zlib", "libpng", "FreeType", "HarfBuzz", "libmicrohttpd", "FFmpeg", "libwebp"] {
      let line = lines.first { $0.hasPrefix("  \(library) ") }
      #expect(line != nil, "\(library) is listed")
      #expect(line?.contains(where: \.isNumber) == true, "\(library) has a version: \(line ?? "")")
    }
    let alone = try ChildProcess.run([BuiltProducts.inklingArchive, "--verbose", "list"])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("'--verbose' goes with '--version'"))
    // The manual page carries the same version.
    let manual = try ChildProcess.run([BuiltProducts.inklingArchive, "manual"])
    #expect(manual.stdout.contains("\"inkling-archive \(version)\""))
  }
}
