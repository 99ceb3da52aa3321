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
    "cairo": ["cairo", "pixman"],
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
    for text in [
      "Apache License, Version 2.0", "version 3 or later (GPL-3.0-or-later)", "LGPL-2.1", "glibc", "Swift runtime",
    ] {
      #expect(notice.stdout.contains(text), "the notice says \(text)")
    }
    #expect(!notice.stdout.contains("version 2 or later**"), "the whole is not called GPL-2.0-or-later")
    let help = try ChildProcess.run([BuiltProducts.inklingArchive, "licenses", "--help"]).stdout
    #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("the GPL, version 3 or later"))
  }

  /// The texts of the licences that ask to be reproduced with a binary (MIT and its kin, BSD,
  /// ISC, Unicode, zlib, libpng) are in the notice in full, and the Debian package's copyright
  /// file carries the same texts; neither sends the reader to a package the binary does not
  /// depend on.
  @Test func theLicenceTextsAreGivenInFull() throws {
    let notice = try ChildProcess.run([BuiltProducts.inklingArchive, "licenses"]).stdout
    let texts = notice.components(separatedBy: "```text\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
    #expect(texts.count == 9, "\(texts.count) licence texts")
    for phrase in [
      "The above copyright notice and this permission notice shall be included in\nall copies",
      "Redistributions in binary form must reproduce the above copyright\n    notice",
      "Neither the name Facebook, nor Meta", "Neither the name of Google",
      "Permission to use, copy, modify, and/or distribute this software for any",
      "This notice may not be removed or altered from any source distribution.",
      "PROVIDE MAINTENANCE, SUPPORT, UPDATES, ENHANCEMENTS, OR MODIFICATIONS.",
    ] {
      #expect(notice.contains(phrase), "the notice has \(phrase)")
    }
    let copyright = try String(contentsOfFile: PackageFolder.path("packaging/debian/copyright"), encoding: .utf8)
    // DEP-5 indents each line by a space and writes an empty line as " .".
    func words(_ text: String) -> String {
      text.split(whereSeparator: \.isWhitespace).filter { $0 != "." }.joined(separator: " ")
    }
    let paragraphs = words(copyright)
    for text in texts {
      let body = text.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
      #expect(paragraphs.contains(words(body)), "copyright lacks: \(body.prefix(60))")
    }
    #expect(copyright.hasPrefix("Upstream-Name: inkling-archive\nLicense: GPL-3+\n"))
    for text in [notice, copyright] {
      #expect(!text.contains("copyright file of Debian's") && !text.contains("/usr/share/doc/lib"))
    }
  }

  @Test func versionVerboseListsTheLibrariesWithVersions() throws {
    // VERSION's first line is the version, its second the version's date.
    let version = try String(
      contentsOfFile: PackageFolder.path("Sources/InklingArchive/About/VERSION"), encoding: .utf8
    )
    .split(separator: "\n")[0].trimmingCharacters(in: .whitespaces)
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
