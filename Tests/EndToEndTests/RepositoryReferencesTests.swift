// What the code rests on is inside the repository: a clone has no issue tracker and no folder
// beside it, so no file under Sources, Tests, scripts, fuzz or migrations may send its reader
// to an issue by number or to a path outside the repository, and every `docs/…` a comment
// names (with the heading it quotes) must be there. Any line counts, comment or not: a line a
// script prints is read too. Binary files (fixtures, golden pictures, a fuzzer's corpus) are not read.

import Foundation
import InklingTestSupport
import Testing

@Suite struct RepositoryReferencesTests {
  static let root = PackageFolder.path
  static let scanned = ["Sources", "Tests", "scripts", "fuzz", "migrations"]
  /// Folders that runs leave behind, not the repository's own files.
  static let generated: Set<String> = ["corpus-work", "__pycache__", "bench-work", "demo-work"]

  /// What sends a reader outside the repository: an issue by number, a path beside it, or a
  /// web address (a clone may be read offline, and the house writes no host names in).
  struct OutsideReferences {
    let issueNumber: Regex<AnyRegexOutput>
    let webAddress: Regex<AnyRegexOutput>
    /// Addresses that are data, not pointers: this machine (also as a script's pattern), the
    /// made-up hosts the tests send hostile requests from, and the XML namespaces SVG names.
    static let dataHosts = [
      "localhost", "127.0.0.1", "127\\.", "[::1]", "0.0.0.0", "HOST", "example.com", "evil", "www.w3.org/2000/",
      "www.w3.org/1999/",
    ]
    /// Spelled in two pieces so that this file does not name them itself.
    let paths = [(".." + "/shared", "a path beside the repository"), ("/" + "work/", "a path outside the repository")]

    init() throws {
      issueNumber = try Regex(#"\b[Ii]ssues? #?[0-9]+|\(#[0-9]+\)"#)
      webAddress = try Regex(#"https?://([A-Za-z0-9\[][^\s)"'`>]*)"#)
    }

    /// The references outside the repository in one line of text, described.
    func find(in line: Substring) -> [String] {
      var found: [String] = []
      // Most lines hold neither `ssue` nor `(#`: only those are given to the regex.
      if line.contains("ssue") || line.contains("(#"), let match = line.firstMatch(of: issueNumber) {
        found.append("an issue number, \"\(line[match.range])\"")
      }
      for (path, what) in paths where line.contains(path) { found.append("\(what), \"\(path)\"") }
      if line.contains("://") {
        for match in line.matches(of: webAddress) {
          let address = line[match.range]
          let host = address.drop { $0 != "/" }.dropFirst(2)
          if !Self.dataHosts.contains(where: { host.hasPrefix($0) }) { found.append("a web address, \"\(address)\"") }
        }
      }
      return found
    }
  }

  /// Each text file of the scanned folders with its text (relative path, text).
  static func textFiles() throws -> [(path: String, text: String)] {
    var files: [(path: String, text: String)] = []
    for folder in scanned {
      let base = URL(fileURLWithPath: root + "/" + folder)
      guard
        let walk = FileManager.default.enumerator(
          at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
      else { continue }
      for case let url as URL in walk {
        if generated.contains(url.lastPathComponent) {
          walk.skipDescendants()
          continue
        }
        guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
        let data = try Data(contentsOf: url)
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { continue }
        files.append((folder + "/" + String(url.path.dropFirst(base.path.count + 1)), text))
      }
    }
    return files
  }

  @Test func noFileNamesAnIssueNumberOrAPathOutsideTheRepository() throws {
    let files = try Self.textFiles()
    #expect(files.contains { $0.path == "Sources/InklingFormats/Drawing/DrawingReader.swift" })
    #expect(files.contains { $0.path == "scripts/bench" } && files.contains { $0.path.hasPrefix("fuzz/") })
    let check = try OutsideReferences()
    var found: [String] = []
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        found += check.find(in: line).map { "\(file.path):\(number + 1): \($0)" }
      }
    }
    #expect(found.isEmpty, "say the reason, or point into docs/:\n\(found.joined(separator: "\n"))")
  }

  @Test func theCheckSeesWhatItLooksFor() throws {
    let check = try OutsideReferences()
    // Put together here, so that this file's own lines name no issue.
    let (issue, number) = ("issue", "(" + "#34)")
    let offending = [
      "// Names are isolated (\(issue) 30): a name", "/// \(issue.capitalized) 31, item 4: the newest",
      "# (\(issue)s 3 and 4)", "echo \"- Target (\(issue) 3): indexing\"", "// see \(number)",
      "// (" + ".." + "/shared/docs/pkdrawing-format.md)", "# cp /" + "work/shared/samples .",
      "// (https:" + "//www.sqlite.org/wal.html)", "// see http:" + "//howard.example.net/dates",
    ]
    for line in offending { #expect(!check.find(in: line[...]).isEmpty, "\(line)") }
    let fine = [
      "Issue.record(\"expected help\")", "// (UAX #9, X6a)", "\"reverts to #1\"", "// docs/decisions.md",
      "// the issue is the archive's size", "let tissue = 3", "let url = \"http://127.0.0.1:\\(port)/\"",
      "xmlns=\"http://www.w3.org/2000/svg\"", "try RequestTarget(\"http://example.com/\")",
    ]
    for line in fine { #expect(check.find(in: line[...]).isEmpty, "\(line)") }
  }

  /// The documents comments point at, and the headings they quote after them
  /// (`(docs/decisions.md, "Immutable only when the URL names the content")`).
  @Test func everyDocumentAndHeadingACommentNamesIsThere() throws {
    // A comment wraps a heading over lines: read each file as one line, comment markers gone.
    let marker = try Regex(#"\n\s*(///|//|--|#)?\s*"#)
    let reference = try Regex(#"docs/([A-Za-z0-9._-]+\.md)(, "([^"]+)")?"#)
    var named = 0
    var missing: [String] = []
    for file in try Self.textFiles() {
      let text = file.text.replacing(marker, with: " ")
      for match in text.matches(of: reference) {
        named += 1
        let document = String(match.output[1].substring ?? "")
        let path = Self.root + "/docs/" + document
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
          missing.append("\(file.path): docs/\(document) is not there")
          continue
        }
        guard let heading = match.output[3].substring.map(String.init) else { continue }
        let headings = contents.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
          $0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
        }
        if !headings.contains(heading) { missing.append("\(file.path): docs/\(document) has no \"\(heading)\"") }
      }
    }
    #expect(named >= 30, "the comments name \(named) documents")
    #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
  }
}
