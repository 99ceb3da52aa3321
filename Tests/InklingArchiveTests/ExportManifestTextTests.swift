import Foundation
import InklingCorpus
import InklingFormats
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// The exact text of an export's manifest, in a folder and in a draft's zip: one entry a line,
/// the files first, then what was said about the drafts, every key in its place. Scripts read
/// these files (and docs/schemas holds their contract), so a change of a byte is a change of
/// what the tool writes, not of how it writes it.
@Suite struct ExportManifestTextTests {
  /// Two drafts, three files, a tag, stars, a label and two notes (their times set, since a
  /// note is dated when written).
  static func archive(_ folder: TemporaryFolder) throws -> Archive {
    let files = [
      "Plan-B-2025-10-01T10:00:00Z.inkling", "Plan-B-2025-10-02T10:00:00.250Z.inkling",
      "Caf\u{E9} \"quoted\"-2025-09-01T08:00:00Z.inkling",
    ]
    for (index, name) in files.enumerated() {
      try folder.write(
        "Drafts/\(name)", inklingFile(drawing: SeededRandom.bytes(300 + index, seed: UInt64(index))),
        modified: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    // One file at a time: an export writes drafts in the order they were made, which the
    // threads of one import of the folder leave to chance.
    for name in files {
      #expect(try archive.importFiles(at: [folder.path("Drafts/" + name)]).versionsImported == 1)
    }
    _ = try archive.tag(.named("Plan-B"), with: ["client:anna", "Portfolio"])
    _ = try archive.star([.named("Plan-B")], stars: 4)
    try archive.label(draft: "Plan-B", version: .number(2), as: "final")
    try archive.addNote(toDraft: "Plan-B", text: "for the \"spring\" issue\nsecond line")
    try archive.addNote(toDraft: "Plan-B", version: .number(1), text: "first try")
    try archive.database.execute("UPDATE note SET written_ms = 1760000000000 + id * 123")
    return archive
  }

  static func sha256(_ folder: TemporaryFolder, _ name: String) throws -> String {
    hexString(SHA256.hash(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Drafts/" + name))))))
  }

  @Test func aFolderExportsManifestIsExactlyThisText() throws {
    let folder = try TemporaryFolder("manifest-text")
    let archive = try Self.archive(folder)
    _ = try archive.export(to: folder.path("out"), options: ExportOptions(allVersions: true))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("out/inkling-export.json")))
    let text = String(decoding: bytes, as: UTF8.self)
    let cafe = try Self.sha256(folder, "Caf\u{E9} \"quoted\"-2025-09-01T08:00:00Z.inkling")
    let first = try Self.sha256(folder, "Plan-B-2025-10-01T10:00:00Z.inkling")
    let second = try Self.sha256(folder, "Plan-B-2025-10-02T10:00:00.250Z.inkling")
    let expected = """
      {"manifest":"inkling-archive export","version":1,"files":[
      {"draft":"Plan-B","version":1,"saved":"2025-10-01T10:00:00Z","file":"Plan-B-2025-10-01T10:00:00Z.inkling",\
      "kind":"inkling","size":461,"sha256":"\(first)","renamedFrom":null},
      {"draft":"Plan-B","version":2,"saved":"2025-10-02T10:00:00.250Z",\
      "file":"Plan-B-2025-10-02T10:00:00.250Z.inkling","kind":"inkling","size":460,"sha256":"\(second)",\
      "renamedFrom":null},
      {"draft":"Café \\"quoted\\"","version":1,"saved":"2025-09-01T08:00:00Z",\
      "file":"Café \\"quoted\\"-2025-09-01T08:00:00Z.inkling","kind":"inkling","size":463,"sha256":"\(cafe)",\
      "renamedFrom":null}
      ],"drafts":[
      {"draft":"Plan-B","stars":4,"tags":["client:anna","Portfolio"],\
      "notes":[{"text":"for the \\"spring\\" issue\\nsecond line","written":"2025-10-09T08:53:20.123Z"}],\
      "versions":[{"version":1,"saved":"2025-10-01T10:00:00Z","sha256":"\(first)","labels":[],\
      "notes":[{"text":"first try","written":"2025-10-09T08:53:20.246Z"}]},\
      {"version":2,"saved":"2025-10-02T10:00:00.250Z","sha256":"\(second)","labels":["final"],"notes":[]}]}
      ]}

      """
    #expect(text == expected, "\(text)")
  }

  @Test func aDraftsZipHasTheSameManifestTextForItsFiles() throws {
    let folder = try TemporaryFolder("manifest-zip")
    let archive = try Self.archive(folder)
    try Data(try archive.versionsZip(draft: "Plan-B")).write(to: URL(fileURLWithPath: folder.path("plan.zip")))
    let unzipped = try ChildProcess.run(["/usr/bin/unzip", "-p", folder.path("plan.zip"), "inkling-export.json"])
    #expect(unzipped.status == 0, "\(unzipped.stderr)")
    let first = try Self.sha256(folder, "Plan-B-2025-10-01T10:00:00Z.inkling")
    let second = try Self.sha256(folder, "Plan-B-2025-10-02T10:00:00.250Z.inkling")
    let expected = """
      {"manifest":"inkling-archive export","version":1,"files":[
      {"draft":"Plan-B","version":1,"saved":"2025-10-01T10:00:00Z","file":"Plan-B-2025-10-01T10_00_00Z.inkling",\
      "kind":"inkling","size":461,"sha256":"\(first)","renamedFrom":"Plan-B-2025-10-01T10:00:00Z.inkling"},
      {"draft":"Plan-B","version":2,"saved":"2025-10-02T10:00:00.250Z",\
      "file":"Plan-B-2025-10-02T10_00_00.250Z.inkling","kind":"inkling","size":460,"sha256":"\(second)",\
      "renamedFrom":"Plan-B-2025-10-02T10:00:00.250Z.inkling"}
      ]}

      """
    #expect(unzipped.stdout == expected, "\(unzipped.stdout)")
  }
}
