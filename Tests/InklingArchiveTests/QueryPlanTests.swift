import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Every query a one-shot command runs finds its rows through an index: SQLite's plan for it
/// (`EXPLAIN QUERY PLAN`, without ANALYZE, as the tool runs: with no statistics the plan is
/// the same at any size, so sixty drafts show it) scans neither `version` nor the stroke index, whose rows grow with every save. The
/// queries are those the store prepares while each operation runs, as the connection reports
/// them. `stats` (a sum over every version) and `check` (every row compared with what it
/// must agree with) are whole-archive passes by design, and are not among them.
@Suite struct QueryPlanTests {
  /// The statements `operation` prepares on the archive's connection.
  private func statements(_ archive: Archive, _ operation: (Archive) throws -> Void) throws -> [String] {
    var found: [String] = []
    archive.database.statementPrepared = { found.append($0) }
    defer { archive.database.statementPrepared = nil }
    try operation(archive)
    return found
  }

  /// The lines of the plans of `statements` that read every row of `version` or `stroke`
  /// (by any alias), each with its statement.
  private func scans(_ statements: [String], in archive: Archive) throws -> [String] {
    let db = archive.database
    var found: [String] = []
    for sql in Set(statements) {
      let trimmed = sql.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
      guard trimmed.hasPrefix("SELECT") || trimmed.hasPrefix("WITH") else { continue }
      var names: Set<String> = ["version", "stroke"]
      for table in ["version", "stroke"] {
        let pattern = try NSRegularExpression(pattern: "\\b\(table)\\s+(?:AS\\s+)?([A-Za-z_][A-Za-z_0-9]*)")
        for match in pattern.matches(in: sql, range: NSRange(sql.startIndex..., in: sql)) {
          let alias = String(sql[Range(match.range(at: 1), in: sql)!])
          if !["WHERE", "JOIN", "ON", "USING", "INDEXED", "GROUP", "ORDER", "LIMIT", "LEFT", "INNER", "CROSS"]
            .contains(alias.uppercased())
          {
            names.insert(alias)
          }
        }
      }
      // Parameters left unbound are NULL: the plan is the one SQLite makes for any value.
      let statement = try db.makeStatement("EXPLAIN QUERY PLAN " + sql)
      statement.reset()
      var plan: [String] = []
      while let row = try statement.step() { plan.append(row.string(3)) }
      for line in plan {
        let words = line.split(separator: " ")
        if words.count >= 2, words[0] == "SCAN", names.contains(String(words[1])) {
          found.append("\(line)  ←  \(sql)")
        }
      }
    }
    return found
  }

  @Test func oneShotCommandsQueriesUseAnIndex() throws {
    let folder = try TemporaryFolder("query-plans")
    try MergeTests.writeFiles(CorpusSpec(drafts: 60, versionsPerDraft: 1...5, seed: 7), into: folder) { _ in ["d"] }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("d")])
    let name = try #require(try archive.drafts(limit: 1).first?.name)
    let operations: [(String, (Archive) throws -> Void)] = [
      ("list", { _ = try $0.drafts(limit: 50) }),
      ("list --since", { _ = try $0.drafts(matching: DraftQuery(since: "2025-06"), limit: 50) }),
      ("list --name", { _ = try $0.drafts(matching: DraftQuery(name: "a"), limit: 50) }),
      ("list --sort oldest", { _ = try $0.drafts(sort: .oldest, limit: 50) }),
      ("history", { _ = try $0.history(of: name) }),
      ("show", { _ = try $0.show(draft: name) }),
      ("complete-names", { _ = try $0.draftNames(startingWith: String(name.prefix(2))) }),
      ("complete-names --trash", { _ = try $0.draftNames(startingWith: "", inTrash: true) }),
    ]
    let searches = [
      "name:a", "saved:>=2025-06", "imported:>=2025-06", "versions:>3", "strokes:>100", "ink:pen",
      "background:white", "source:anna",
    ]
    for (command, operation) in operations
      + searches.map({ text in ("search " + text, { _ = try $0.search(text, limit: 50) }) })
    {
      let prepared = try statements(archive, operation)
      #expect(!prepared.isEmpty, "\(command)")
      let found = try scans(prepared, in: archive)
      #expect(found.isEmpty, "\(command):\n\(found.joined(separator: "\n"))")
    }
  }

  /// A contact sheet or a portfolio of a few drafts finds each through the name's index, and
  /// reads them back by id: no plan of theirs reads every draft, so they cost what they would
  /// in an archive of those drafts alone.
  @Test func picturesOfNamedDraftsLookEachUpByName() throws {
    let folder = try TemporaryFolder("query-plans-pictures")
    try MergeTests.writeFiles(CorpusSpec(drafts: 60, versionsPerDraft: 1...3, seed: 8), into: folder) { _ in ["d"] }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("d")])
    let names = try archive.drafts(limit: 2).map(\.name)
    let operations: [(String, (Archive) throws -> Void)] = [
      ("contact-sheet", { _ = try $0.contactSheet(drafts: .named(names)) }),
      ("contact-sheet -o", { _ = try $0.contactSheets(drafts: .named(names), to: folder.path("sheet.png")) }),
      ("contact-sheet -o FILE.pdf", { _ = try $0.portfolioPDF(drafts: .named(names)) }),
    ]
    for (command, operation) in operations {
      var lines: [String] = []
      for sql in Set(try statements(archive, operation)) where sql.contains("FROM draft") {
        // Parameters left unbound are NULL: the plan is the one SQLite makes for any value.
        let statement = try archive.database.makeStatement("EXPLAIN QUERY PLAN " + sql)
        var plan: [String] = []
        while let row = try statement.step() { plan.append(row.string(3)) }
        lines += plan.filter { $0.hasPrefix("SCAN draft") || $0.hasPrefix("SEARCH draft") }.map { "\($0)  ←  \(sql)" }
      }
      #expect(!lines.isEmpty, "\(command)")
      let wide = lines.filter { !$0.contains("(name=?)") && !$0.contains("INTEGER PRIMARY KEY (rowid=?)") }
      #expect(wide.isEmpty, "\(command):\n\(wide.joined(separator: "\n"))")
    }
  }

  /// A completion's names are one range of the folded-name index, live drafts or trashed.
  @Test func completionReadsARangeOfTheNameIndex() throws {
    let folder = try TemporaryFolder("query-plans-names")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.drafts()
    for inTrash in [false, true] {
      let plan = try archive.database.fetchAll(
        "EXPLAIN QUERY PLAN " + NameCompletion.sql(inTrash: inTrash),
        NameCompletion.arguments(prefix: "Ca", limit: 200)
      ) { $0.string(3) }
      #expect(plan == ["SEARCH draft USING INDEX draft_by_folded (name_folded>? AND name_folded<?)"], "\(plan)")
    }
  }
}
