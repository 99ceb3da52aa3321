// docs/architecture.md is the map a new reader starts from; these tests keep it true: its table
// lists every layer's target with exactly the targets of ours that Package.swift gives it, each
// only from rows above it (the layer rule), and names every folder of each target.

import Foundation
import InklingTestSupport
import Testing

@Suite struct ArchitectureMapTests {
  /// One row of the map's table.
  struct Row {
    var target: String
    var imports: Set<String>
    var holds: String
  }

  static let root = PackageFolder.path

  /// The rows of the table in docs/architecture.md, in order.
  static func rows() throws -> [Row] {
    let text = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
    let lines = text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Layer") }
    return lines.compactMap { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 6 else { return nil }
      return Row(target: names(cells[2]).first ?? "", imports: Set(names(cells[3])), holds: cells[4])
    }
  }

  /// The `code spans` of a cell.
  static func names(_ cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  /// Each target of Package.swift with its dependencies, and whether it wraps a C library.
  static func targets() throws -> [String: (dependencies: Set<String>, isC: Bool)] {
    let manifest = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
    let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\("#)
    let starts = manifest.ranges(of: declaration).map(\.lowerBound) + [manifest.endIndex]
    var found: [String: (dependencies: Set<String>, isC: Bool)] = [:]
    for (start, end) in zip(starts, starts.dropFirst()) {
      let text = String(manifest[start..<end])
      guard let name = try Regex(#"name: "([^"]+)""#).firstMatch(in: text)?.output[1].substring else { continue }
      var dependencies: Set<String> = []
      if let list = text.range(of: "dependencies: [") {
        let rest = text[list.upperBound...]
        let inside = rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)]
        dependencies = Set(names(String(inside).replacingOccurrences(of: "\"", with: "`")))
      }
      found[String(name)] = (dependencies, text.hasPrefix(".systemLibrary") || text.contains("\"Sources/C/"))
    }
    return found
  }

  @Test func eachLayerImportsExactlyWhatPackageSwiftGivesItFromTheRowsAbove() throws {
    let rows = try Self.rows()
    let targets = try Self.targets()
    #expect(rows.count >= 8)
    var above: Set<String> = []
    for row in rows {
      let target = try #require(targets[row.target], "\(row.target) is in the map but not in Package.swift")
      let ours = target.dependencies.filter { targets[$0]?.isC == false }
      #expect(
        ours == row.imports, "\(row.target): Package.swift gives \(ours.sorted()), the map \(row.imports.sorted())")
      #expect(
        row.imports.isSubset(of: above), "\(row.target) imports \(row.imports.subtracting(above).sorted()) from below")
      above.insert(row.target)
    }
    let library = targets.filter { !$0.value.isC && !$0.key.hasSuffix("Tests") }.keys
    let support: Set = ["InklingCorpus", "inkling-corpus", "inkling-bench", "InklingTestSupport"]
    #expect(Set(library).subtracting(support) == above, "every layer's target has a row")
  }

  @Test func eachFolderOfATargetIsNamedInItsRow() throws {
    for row in try Self.rows() {
      let folder = Self.root + "/Sources/" + row.target
      let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
      for entry in entries.sorted() {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder), isFolder.boolValue
        else { continue }
        #expect(row.holds.contains("`\(entry)/`"), "\(row.target)/\(entry) is not on the map")
      }
    }
  }
}

extension ArchitectureMapTests {
  /// The modules of ours a Swift file imports (`import X`, `@testable import X`, `package
  /// import X`, `import struct X.Y`), skipping the toolchain's.
  static func imports(in file: String, ours: Set<String>) throws -> Set<String> {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let line = try Regex(
      #"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
    )
    .anchorsMatchLineEndings()
    return Set(text.matches(of: line).map { String($0.output[1].substring ?? "") }).intersection(ours)
  }

  /// What the compiler's explicit target-dependency check asks, read from the sources: no file
  /// imports a module of ours that Package.swift does not give its target, so a layer cannot
  /// reach below the map through a module that happens to be built already.
  @Test func everyImportIsADependencyPackageSwiftDeclares() throws {
    let targets = try Self.targets()
    let ours = Set(targets.keys)
    var checked = 0
    for (name, target) in targets where !target.isC {
      let folder = ["/Sources/", "/Tests/"].map { Self.root + $0 + name }.first {
        FileManager.default.fileExists(atPath: $0)
      }
      guard let folder, let files = FileManager.default.enumerator(atPath: folder) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let undeclared = try Self.imports(in: folder + "/" + file, ours: ours).subtracting(target.dependencies)
          .subtracting([name])
        #expect(
          undeclared.isEmpty, "\(name)/\(file) imports \(undeclared.sorted()), which Package.swift does not give it")
        checked += 1
      }
    }
    #expect(checked > 300)
  }
}
