// What writes Sources/InklingStore/SchemaSnapshot.swift and the stamp it records: tools of
// SchemaSnapshotTests (which regenerates the snapshot with INKLING_UPDATE_SCHEMA_SNAPSHOT=1),
// kept out of the store that ships, which only reads the snapshot.

@testable import InklingStore

extension SchemaVerification {
  /// `schemaStamp` of what the migrations create, as SchemaSnapshot.swift records it.
  ///
  /// - Throws: `StoreError` when a migration fails.
  static func replayedSchemaStamp() throws -> String {
    try replayed { try schemaStamp(in: $0) }
  }

  /// The text of SchemaSnapshot.swift for `schema` and its `stamp`, made from migrations of
  /// `digest`.
  static func snapshotSource(of schema: [String: SchemaObject], stamp: String, digest: String) -> String {
    func literal(_ text: String) -> String {
      var out = "\""
      for character in text.unicodeScalars {
        switch character {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out.unicodeScalars.append(character)
        }
      }
      return out + "\""
    }
    var lines = [
      "// swift-format-ignore-file",
      "// Generated from migrations/ by `INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`;",
      "// do not edit. What the migrations create, so that opening an archive need not replay them",
      "// (SchemaVerification.swift explains why and when it still does).",
      "",
      "enum SchemaSnapshot {",
      "  /// SchemaVerification.migrationsDigest of the migrations this was made from.",
      "  static let migrationsDigest = \(literal(digest))",
      "",
      "  /// SchemaVerification.schemaStamp of the database the migrations create.",
      "  static let schemaStamp = \(literal(stamp))",
      "",
      "  static let objects: [SchemaObject] = [",
    ]
    for name in schema.keys.sorted() {
      let object = schema[name]!
      let sql = object.sql.map(literal) ?? "nil"
      lines.append("    SchemaObject(")
      lines.append(
        "      type: \(literal(object.type)), name: \(literal(object.name)), table: \(literal(object.table)),")
      lines.append("      sql: \(sql)),")
    }
    lines += ["  ]", "}", ""]
    return lines.joined(separator: "\n")
  }
}
