// An option is declared once, as a command's `@Parsed` property: the property is in the spec
// (so the parser knows it, help shows it and completions offer it) because it is the spec. What
// the compiler does not see is a property declared and never read: an option accepted and
// ignored. This test reads the command sources and finds those, and any declaration kept as a
// `static let` (shared by several commands) that no `@Parsed` or spec names.

import Foundation
import InklingTestSupport
import Testing

@Suite struct OptionDeclarationTests {
  static let folder = PackageFolder.path + "/Sources/InklingArchiveTool"

  /// Every Swift file of the executable, by name, with its text.
  static func sources() throws -> [String: String] {
    let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    var sources: [String: String] = [:]
    for file in files where file.hasSuffix(".swift") {
      sources[file] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
    }
    return sources
  }

  /// `text` without its string literals (help texts name options too) and comments.
  static func code(_ text: String) throws -> String {
    var code = text
    for pattern in [#"\"\"\".*?\"\"\""#, #""(?:[^"\\\n]|\\.)*""#, #"//[^\n]*"#] {
      code = try NSRegularExpression(pattern: pattern, options: .dotMatchesLineSeparators)
        .stringByReplacingMatches(in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
    }
    return code
  }

  /// How often `pattern` (an ICU regular expression: Swift's Regex has no lookbehind) occurs in `text`.
  static func count(_ pattern: String, in text: String) throws -> Int {
    try NSRegularExpression(pattern: pattern).numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
  }

  /// The names of the `@Parsed` properties of `code`.
  static func parsedProperties(in code: String) throws -> [String] {
    // `@Parsed(…)` up to the `var` that follows it, on one line or several.
    let property = try NSRegularExpression(pattern: #"@Parsed\(.*?\)\s*var (\w+):"#, options: .dotMatchesLineSeparators)
    return property.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap { match in
      Range(match.range(at: 1), in: code).map { String(code[$0]) }
    }
  }

  @Test func everyParsedPropertyIsRead() throws {
    var found = 0
    for (file, text) in try Self.sources() {
      let code = try Self.code(text)
      for name in try Self.parsedProperties(in: code) {
        found += 1
        let escaped = NSRegularExpression.escapedPattern(for: name)
        // Not the declaration (`var name:`) nor a label (`name: x`); `$name.isGiven` is a read.
        let uses = try Self.count(#"(?<![\w.])\$?\#(escaped)\b(?!:)|\.\#(escaped)\b"#, in: code)
        #expect(uses > 0, "\(name) (\(file)) is declared but never read: it would be accepted and ignored")
      }
    }
    #expect(found > 90, "the scan finds the declarations")
  }

  @Test func everySharedDeclarationIsUsed() throws {
    let sources = try Self.sources().mapValues(Self.code)
    let everything = sources.values.joined(separator: "\n")
    let declaration = try Regex(#"^(?:struct|enum) (\w+)|^  static let (\w+) = (?:Option|Flag|Argument)\("#)
      .anchorsMatchLineEndings()
    var shared = 0
    for (file, code) in sources {
      var type = ""
      for line in code.split(separator: "\n") {
        guard let match = try declaration.firstMatch(in: String(line)) else { continue }
        if let name = match.output[1].substring {
          type = String(name)
          continue
        }
        guard let name = match.output[2].substring.map(String.init) else { continue }
        shared += 1
        let uses =
          try Self.count(#"\b(Self|\#(type))\.\#(name)\b"#, in: everything)
          + Self.count(#"(?<![\w.])\#(name)\.spec\b"#, in: code)
        #expect(uses > 0, "\(type).\(name) (\(file)) is declared and in no command")
      }
    }
    #expect(shared > 3, "the scan finds the shared declarations")
  }
}
