import Foundation
import InklingTestSupport
import Testing

@testable import InklingArchive

/// VersionLookup finds one version by number, date, newest or id, and describes it exactly as
/// `history` does (number, same drawing, revert, sources), without reading the history.
@Suite struct VersionLookupTests {
  /// "Plan": the pen drawing on October 1, the marker drawing on the 3rd, the pen drawing
  /// again on the 5th (from another source), and a revert to version 2.
  static func archive(_ folder: TemporaryFolder) throws -> Archive {
    let pen = try deviceSample("three-pen-strokes")
    let marker = try deviceSample("pen-marker-hidden")
    try folder.write("A/Plan-2025-10-01T12:00:00Z.inkling", inklingFile(drawing: pen))
    try folder.write("A/Plan-2025-10-03T12:00:00Z.inkling", inklingFile(drawing: marker))
    try folder.write("B/Plan-2025-10-05T12:00:00Z.inkling", inklingFile(drawing: pen, color: (0, 0, 0, 1)))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("A")])
    var options = ImportOptions()
    options.source = "Ben's iPad"
    _ = try archive.importFiles(at: [folder.path("B")], options: options)
    _ = try archive.revert(draft: "Plan", toVersion: 2, now: Date(timeIntervalSince1970: 1_760_000_000))
    return archive
  }

  @Test func findsEachVersionByNumberAndIdAsHistoryDescribesIt() throws {
    let archive = try Self.archive(try TemporaryFolder("lookup-number"))
    let history = try archive.history(of: "Plan")
    #expect(history.map(\.sameDrawingAs) == [nil, nil, 1, 2])
    #expect(history.map(\.revertsTo) == [nil, nil, nil, 2])
    #expect(history[2].sources.map(\.label) == ["Ben's iPad"])
    let lookup = VersionLookup(archive)
    for entry in history {
      let found = try lookup.version(draft: "Plan", .number(entry.number))
      #expect(found.info == entry)
      #expect(try lookup.version(id: VersionID(rawValue: found.row.id)).info == entry)
    }
  }

  @Test func findsTheNewestAndTheVersionCurrentAtADate() throws {
    let archive = try Self.archive(try TemporaryFolder("lookup-date"))
    let history = try archive.history(of: "Plan")
    let lookup = VersionLookup(archive)
    #expect(try lookup.version(draft: "Plan", .latest).info == history[3])
    let utc = TimeZone(identifier: "UTC")!
    // A day is the whole day: the version current at its end.
    #expect(
      try lookup.version(draft: "Plan", .at(try DateExpression.parse("2025-10-03", timeZone: utc))).info == history[1])
    #expect(
      try lookup.version(draft: "Plan", .at(try DateExpression.parse("2025-10-04", timeZone: utc))).info == history[1])
    #expect(
      try lookup.version(draft: "Plan", .at(try DateExpression.parse("2025-10-05", timeZone: utc))).info == history[2])
  }

  @Test func saysWhatIsMissing() throws {
    let archive = try Self.archive(try TemporaryFolder("lookup-missing"))
    let lookup = VersionLookup(archive)
    for number in [0, 5] {
      #expect(throws: ArchiveError.noSuchVersion(draft: "Plan", number: number, versionCount: 4)) {
        try lookup.version(draft: "Plan", .number(number))
      }
    }
    let utc = TimeZone(identifier: "UTC")!
    let september = try DateExpression.parse("2025-09", timeZone: utc)
    #expect(
      throws: ArchiveError.noVersionSavedBy(
        draft: "Plan", date: Date(timeIntervalSince1970: Double(september.end) / 1000),
        firstSaved: try archive.history(of: "Plan")[0].saved)
    ) {
      try lookup.version(draft: "Plan", .at(september))
    }
    #expect(throws: ArchiveError.noSuchDraft(name: "Plam", suggestions: ["Plan"])) {
      try lookup.version(draft: "Plam", .latest)
    }
    #expect(throws: ArchiveError.noVersionWithID(VersionID(rawValue: 99))) {
      try lookup.version(id: VersionID(rawValue: 99))
    }
  }
}
