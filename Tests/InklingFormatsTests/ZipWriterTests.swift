// The zip files ZipWriter builds, read back by Python's zipfile (another implementation):
// entries deflated or stored, UTF-8 names, and modification times exact through the "UT"
// field and, in two-second steps, as MS-DOS times (clamped to the years they can hold).

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingFormats

@Suite struct ZipWriterTests {
  @Test func pythonReadsWhatItWrites() throws {
    var random = SeededRandom(seed: 7)
    let entries: [(String, [UInt8], Int64)] = [
      (
        "Plan-2025-10-05T14:03:12Z.inkling", Array(String(repeating: "{\"drawingData\":\"AAAA\"}", count: 200).utf8),
        1_759_673_000
      ),
      ("Café 猫 (2).inkling", random.bytes(5000), 1_759_673_001),
      ("empty", [], 0),
    ]
    var writer = ZipWriter()
    for (name, contents, modified) in entries { try writer.add(name: name, contents: contents, modified: modified) }
    let folder = try TemporaryFolder("zip")
    try Data(try writer.finished()).write(to: URL(fileURLWithPath: folder.path("test.zip")))
    let read = try ChildProcess.run(
      [
        "python3", "-c",
        """
        import sys, zipfile, json
        with zipfile.ZipFile(sys.argv[1]) as z:
            assert z.testzip() is None
            print(json.dumps([[i.filename, list(z.read(i)), i.compress_type, list(i.date_time)] for i in z.infolist()]))
        """,
        folder.path("test.zip"),
      ], timeout: 60)
    #expect(read.status == 0, "\(read.stderr)")
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(read.stdoutBytes)) as? [[Any]])
    #expect(listed.count == entries.count)
    for (entry, row) in zip(entries, listed) {
      #expect(row[0] as? String == entry.0)
      #expect((row[1] as? [Int])?.map(UInt8.init) == entry.1)
    }
    // Text deflates; random bytes are stored as they are.
    #expect(listed[0][2] as? Int == 8)
    #expect(listed[1][2] as? Int == 0)
    #expect(listed[0][3] as? [Int] == [2025, 10, 5, 14, 3, 20])
    #expect(listed[2][3] as? [Int] == [1980, 1, 1, 0, 0, 0])
  }
}
