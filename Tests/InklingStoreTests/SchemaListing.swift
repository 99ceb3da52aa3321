// The text of migrations/schema.sql: the schema the migrations produce, one definition per
// object as it stands after the last migration, with the migrations' own comments, so that
// nobody has to replay ten files in their head to see what `draft` holds today.
//
// It is made by replaying the migrations statement by statement on an in-memory database and
// watching `sqlite_master` after each statement:
//   - an object keeps the comment block written directly above the statement that created it
//     (or above the DROP that the statement replaced it after), and the text of its CREATE
//     statement, which SQLite stores as written, column comments included;
//   - a column added by `ALTER TABLE … ADD COLUMN` is shown inside its table, after the columns
//     before it, under a line naming the migration that added it and that ALTER's own comment;
//   - a table the migrations fill with constant rows (small ones) is followed by those rows.
// Objects are listed table by table in the order the migrations created them, each table with
// its indexes, triggers and the views over it.
//
// Invariant: executing the listing on an empty database gives the schema that the migrations
// give, object for object after SchemaVerification.normalize (SchemaSnapshotTests checks it);
// the listing is documentation, but it never says anything the migrations do not do. It is
// written by the tests (SchemaSnapshotTests), never by the store that ships.

import CSQLite
import InklingFormats

@testable import InklingStore

enum SchemaListing {
  /// The text of migrations/schema.sql for `migrations`.
  ///
  /// - Throws: `StoreError` when a migration does not apply to an empty database.
  static func text(of migrations: [Migration] = Migration.all) throws -> String {
    var replay = try Replay()
    for migration in migrations { try replay.apply(migration) }
    return try replay.listing(migrations)
  }

  // MARK: - Replaying

  /// One object of `sqlite_master` as the replay has seen it made.
  struct Entry {
    var type: String
    var name: String
    var table: String
    /// The CREATE text when the object was made (for a table: before any ADD COLUMN).
    var created: String
    /// The comment lines written directly above the statement that made it.
    var comment: [String]
    var migration: String
    /// Columns added since, in order.
    var added: [(definition: String, comment: [String], migration: String)] = []
    /// The text SQLite holds now.
    var current: String
    /// The position of its creation among all statements, for the listing's order.
    var order: Int
  }

  struct Replay {
    let db: Database
    var entries: [String: Entry] = [:]
    /// Comments of DROP statements, for the CREATE right after that replaces the object.
    var droppedComments: [String: [String]] = [:]
    /// The migration that last inserted rows into each table.
    var filledBy: [String: String] = [:]
    var statements = 0

    init() throws {
      db = try Database(path: ":memory:", mode: .readWrite)
      // Migrations may call the functions every archive connection has.
      try db.registerArchiveFunctions()
    }

    mutating func apply(_ migration: Migration) throws {
      for chunk in try statements(of: migration.sql) {
        let before = try master()
        try db.execute(chunk.statement)
        let after = try master()
        statements += 1
        try record(chunk, migration: migration.name, before: before, after: after)
      }
    }

    /// The statements of `sql`, each with the text before it (spaces and comments), split at
    /// the ends of lines where SQLite's own tokenizer says a statement is complete
    /// (sqlite3_complete), so that trigger bodies
    /// and their semicolons stay whole. The migrations put one statement per line at most.
    private func statements(of sql: String) throws -> [(leading: String, statement: String)] {
      var result: [(String, String)] = []
      var pending = ""
      for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
        pending += line + "\n"
        if sqlite3_complete(pending) != 0 {
          result.append(Self.split(pending))
          pending = ""
        }
      }
      if !pending.trimmingWhitespace().isEmpty {
        // Only comments and spaces after the last statement (sqlite3_complete is false for
        // them): nothing to run.
        guard Self.split(pending).statement.isEmpty else {
          throw StoreError(kind: .sqlite, message: "a migration ends inside a statement", sql: pending)
        }
      }
      return result.filter { !$0.1.isEmpty }
    }

    /// A chunk of complete SQL as its leading comment lines and the statement after them.
    static func split(_ chunk: String) -> (leading: String, statement: String) {
      var lines = chunk.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var leading: [String] = []
      while let first = lines.first, first.trimmingWhitespace().isEmpty || first.trimmingWhitespace().hasPrefix("--") {
        leading.append(first)
        lines.removeFirst()
      }
      return (leading.joined(separator: "\n"), lines.joined(separator: "\n").trimmingWhitespace())
    }

    /// The comment lines directly above the statement: the last run of `--` lines with no
    /// blank line between it and the statement.
    static func directComment(_ leading: String) -> [String] {
      var block: [String] = []
      for line in leading.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty { block = [] } else { block.append(trimmed) }
      }
      return block
    }

    private func master() throws -> [String: (type: String, table: String, sql: String?)] {
      var objects: [String: (type: String, table: String, sql: String?)] = [:]
      try db.statement("SELECT type, name, tbl_name, sql FROM sqlite_master").forEach { row in
        objects[row.string(1)] = (row.string(0), row.string(2), row.isNull(3) ? nil : row.string(3))
      }
      return objects
    }

    private mutating func record(
      _ chunk: (leading: String, statement: String), migration: String,
      before: [String: (type: String, table: String, sql: String?)],
      after: [String: (type: String, table: String, sql: String?)]
    ) throws {
      let comment = Self.directComment(chunk.leading)
      let words = chunk.statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" }).map {
        $0.uppercased()
      }
      if words.first == "INSERT", let into = words.firstIndex(of: "INTO"), into + 1 < words.count {
        let table = chunk.statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })[into + 1]
        filledBy[String(table)] = migration
      }
      for name in before.keys where after[name] == nil {
        entries[name] = nil
        if words.first == "DROP" { droppedComments[name] = comment }
      }
      for (name, now) in after {
        guard let sql = now.sql else { continue }  // automatic indexes
        let old = before[name]
        if old?.sql == sql && old?.type == now.type { continue }
        if old != nil, now.type == "table", var entry = entries[name], let column = Self.addedColumn(chunk.statement) {
          entry.added.append((column, comment, migration))
          entry.current = sql
          entries[name] = entry
          continue
        }
        if old != nil, var entry = entries[name] {
          // Rewritten by SQLite (a table renamed under a trigger, …): the new text, kept comments.
          entry.created = sql
          entry.current = sql
          entry.added = []
          entries[name] = entry
          continue
        }
        let ownComment = comment.isEmpty ? droppedComments[name] ?? [] : comment
        droppedComments[name] = nil
        entries[name] = Entry(
          type: now.type, name: name, table: now.table, created: sql, comment: ownComment, migration: migration,
          current: sql, order: statements)
      }
    }

    /// The column definition of an `ALTER TABLE … ADD [COLUMN] …` statement, as SQLite copies
    /// it into the table's text; nil for any other statement.
    static func addedColumn(_ statement: String) -> String? {
      var rest = Substring(statement)
      for keyword in ["ALTER", "TABLE"] {
        guard let next = dropKeyword(keyword, from: rest) else { return nil }
        rest = next
      }
      rest = rest.drop { $0.isWhitespace }.drop { !$0.isWhitespace }  // the table's name
      guard var definition = dropKeyword("ADD", from: rest) else { return nil }
      definition = dropKeyword("COLUMN", from: definition) ?? definition
      var text = String(definition).trimmingWhitespace()
      while text.hasSuffix(";") { text = String(text.dropLast()).trimmingWhitespace() }
      return text
    }

    private static func dropKeyword(_ keyword: String, from text: Substring) -> Substring? {
      let trimmed = text.drop { $0.isWhitespace }
      guard trimmed.prefix(keyword.count).uppercased() == keyword,
        trimmed.dropFirst(keyword.count).first?.isWhitespace == true
      else { return nil }
      return trimmed.dropFirst(keyword.count)
    }

    // MARK: - The listing

    func listing(_ migrations: [Migration]) throws -> String {
      let first = migrations.first?.name ?? ""
      let last = migrations.last?.name ?? ""
      var out = [
        "-- The schema of an inkling archive after the migrations \(first) to \(last):",
        "-- one definition per object as it stands now, with the comments of the migration that created",
        "-- it (and of the one that added each later column). Generated; do not edit. Change the schema",
        "-- with a new migration, then run",
        "--   INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests",
        "-- README.md says which migration owns which invariant.",
      ]
      let ordered = entries.values.sorted { $0.order < $1.order }
      let tables = ordered.filter { $0.type == "table" }
      var listed = Set<String>()
      for table in tables {
        out += ["", "-- MARK: - \(table.name)", ""]
        out += try block(table)
        listed.insert(table.name)
        for object in ordered where object.type != "table" && object.table == table.name {
          out += try [""] + block(object)
          listed.insert(object.name)
        }
      }
      let rest = ordered.filter { !listed.contains($0.name) }
      if !rest.isEmpty { out += ["", "-- MARK: - Views"] }
      for object in rest { out += try [""] + block(object) }
      return out.joined(separator: "\n") + "\n"
    }

    private func block(_ entry: Entry) throws -> [String] {
      var lines = ["-- (from \(entry.migration))"] + entry.comment
      lines.append(Self.definition(entry) + ";")
      if entry.type == "table" { lines += try rows(of: entry.name) }
      return lines
    }

    /// The table's CREATE text with the added columns shown as its own lines would be; the
    /// current text as SQLite holds it when the columns cannot be placed (never so far).
    static func definition(_ entry: Entry) -> String {
      guard !entry.added.isEmpty else { return entry.current }
      let inserted = entry.added.map { ", " + $0.definition }.joined()
      let created = Array(entry.created.utf8)
      let current = Array(entry.current.utf8)
      guard current.count == created.count + inserted.utf8.count else { return entry.current }
      let common = zip(created, current).prefix { $0 == $1 }.count
      for offset in stride(from: common, through: 0, by: -1)
      where current[offset..<offset + inserted.utf8.count].elementsEqual(inserted.utf8)
        && current[(offset + inserted.utf8.count)...].elementsEqual(created[offset...])
      {
        return placing(
          entry.added, in: String(decoding: created[..<offset], as: UTF8.self),
          before: String(decoding: created[offset...], as: UTF8.self)) ?? entry.current
      }
      return entry.current
    }

    /// `head` + the added columns + `tail`, where SQLite put them between the two (after the
    /// last column, before a table constraint or the closing parenthesis); nil for a table
    /// not written one column a line.
    private static func placing(
      _ added: [(definition: String, comment: [String], migration: String)], in head: String, before tail: String
    ) -> String? {
      var headLines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var tailText = Substring(tail)
      // The line of the last column, to which a comma is added (before its comment, if any).
      var endsLine = false
      if headLines.count > 1, headLines.last?.trimmingWhitespace().isEmpty == true {
        headLines.removeLast()
        endsLine = true
      }
      guard headLines.count > 1 else { return nil }
      var lastLine = headLines.removeLast()
      let indent = String(lastLine.prefix { $0 == " " })
      if tailText.first == "," {
        // A constraint follows: the column's comma and comment stay on its line.
        tailText = tailText.dropFirst()
        let restOfLine = tailText.prefix { $0 != "\n" }
        tailText = tailText.dropFirst(restOfLine.count + 1)
        lastLine += "," + restOfLine
      } else if endsLine {
        lastLine = commaBeforeComment(lastLine)
      } else {
        return nil
      }
      var lines = headLines + [lastLine]
      let constraintFollows = !tailText.trimmingPrefixSpaces().hasPrefix(")")
      for (index, column) in added.enumerated() {
        lines.append(indent + "-- (added by \(column.migration))")
        lines += column.comment.map { indent + $0 }
        // Continuation lines keep their own indentation, under the column's.
        let definition = column.definition.split(separator: "\n", omittingEmptySubsequences: false).map {
          indent + $0
        }
        let last = index == added.count - 1
        var text = definition.joined(separator: "\n")
        if !last || constraintFollows { text += "," }
        lines.append(text)
      }
      return lines.joined(separator: "\n") + "\n" + tailText
    }

    /// `line` with a comma after its SQL, before a `--` comment if it has one.
    private static func commaBeforeComment(_ line: String) -> String {
      var inQuote = false
      var previous: Character?
      for index in line.indices {
        let character = line[index]
        if character == "'" { inQuote.toggle() }
        if !inQuote, character == "-", previous == "-" {
          let start = line.index(before: index)
          let code = String(line[..<start])
          let kept = code.reversed().prefix { $0 == " " }.count
          return String(code.dropLast(kept)) + "," + String(repeating: " ", count: max(1, kept - 1))
            + line[start...]
        }
        previous = character
      }
      return line + ","
    }

    /// The constant rows a migration put in `table`: an INSERT of them when there are a few,
    /// else a comment with their number.
    private func rows(of table: String) throws -> [String] {
      let count = try db.fetchOne("SELECT count(*) FROM \"\(table)\"") { $0.int(0) } ?? 0
      guard count > 0 else { return [] }
      let by = filledBy[table].map { " by \($0)" } ?? ""
      guard count <= 16 else { return ["-- \(count) rows, inserted\(by)."] }
      var columns: [String] = []
      try db.statement("SELECT name FROM pragma_table_info(?) ORDER BY cid").forEach([table]) {
        columns.append($0.string(0))
      }
      var values: [String] = []
      try db.makeStatement("SELECT * FROM \"\(table)\" ORDER BY 1").forEach { row in
        values.append("(" + (0..<row.count).map { Self.literal(row.value($0)) }.joined(separator: ", ") + ")")
      }
      return [
        "-- The rows inserted\(by):",
        "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES",
        "  " + values.joined(separator: ",\n  ") + ";",
      ]
    }

    private static func literal(_ value: DatabaseValue) -> String {
      switch value {
      case .null: "NULL"
      case .integer(let v): "\(v)"
      case .real(let v): "\(v)"
      case .text(let v): "'" + v.replacingAll("'", with: "''") + "'"
      case .blob(let v): "x'" + hexString(v) + "'"
      }
    }
  }
}

extension Substring {
  fileprivate func trimmingPrefixSpaces() -> Substring { drop { $0.isWhitespace } }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for character in self { if character == target { out += replacement } else { out.append(character) } }
    return out
  }
}
