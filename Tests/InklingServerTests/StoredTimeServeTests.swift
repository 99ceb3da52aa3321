import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

extension ServeCommandTests {
  /// A save time of Int64.max in the archive (merged from someone else's, or written there)
  /// does not bring `serve` down: every page and picture of that draft is answered.
  @Test func aSaveTimeOfInt64MaxTrapsNoRequest() throws {
    let temporary = try TemporaryFolder("serve-time")
    let files = temporary.path("files")
    try writeCorpus(CorpusSpec(drafts: 2, versionsPerDraft: 2...2, seed: 7), to: URL(fileURLWithPath: files))
    let archive = temporary.path("archive.sqlite")
    #expect(try Binary.run(["--archive", archive, "import", files]).status == 0)
    let sql = """
      UPDATE version SET saved_ms = 9223372036854775807 WHERE id = (SELECT max(id) FROM version);
      UPDATE draft SET latest_saved_ms = 9223372036854775807
        WHERE id = (SELECT draft_id FROM version WHERE id = (SELECT max(id) FROM version));
      SELECT name, (SELECT max(id) FROM version) FROM draft
        WHERE id = (SELECT draft_id FROM version WHERE id = (SELECT max(id) FROM version))
      """
    let altered = try ChildProcess.run(["/usr/bin/sqlite3", "-separator", "\t", archive, sql])
    let fields = altered.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t")
    try #require(fields.count == 2, "\(altered.stdout) \(altered.stderr)")
    let (name, id) = (String(fields[0]), String(fields[1]))

    let running = try Running(["serve", "--port", "0", "--token", "stored-time-token"], archive: archive)
    let port = try #require(Self.port(of: running.readLine()))
    let query = "name=" + encoded(name)
    for target in [
      "/", "/draft?" + query, "/api/draft?" + query, "/api/drafts", "/versions/\(id)/thumbnail.png",
      "/versions/\(id)/render.png", "/versions/\(id)/file", "/draft/versions.zip?" + query,
    ] {
      let response = try HTTPClient.get(port, target, headers: [("Authorization", "Bearer stored-time-token")])
      #expect(response.status == 200, "\(target): \(response.status)")
    }
    #expect(running.isRunning)
    #expect(running.stop() == 0)
  }

  /// File sizes of Int64.max on two versions of a draft: the draft page sums them (it said
  /// nothing before serve died of the overflow), and the zip refuses them as too large.
  @Test func fileSizesOfInt64MaxTrapNoRequest() throws {
    let temporary = try TemporaryFolder("serve-size")
    let files = temporary.path("files")
    try writeCorpus(CorpusSpec(drafts: 1, versionsPerDraft: 3...3, seed: 8), to: URL(fileURLWithPath: files))
    let archive = temporary.path("archive.sqlite")
    #expect(try Binary.run(["--archive", archive, "import", files]).status == 0)
    let altered = try ChildProcess.run([
      "/usr/bin/sqlite3", archive,
      "UPDATE version SET file_size = 9223372036854775807 WHERE id IN (SELECT id FROM version LIMIT 2); "
        + "SELECT id FROM draft",
    ])
    let id = altered.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let running = try Running(["serve", "--port", "0", "--token", "stored-size-token"], archive: archive)
    let port = try #require(Self.port(of: running.readLine()))
    let bearer = [("Authorization", "Bearer stored-size-token")]
    let page = try HTTPClient.get(port, "/draft?id=\(id)", headers: bearer)
    #expect(page.status == 200, "\(page.status)")
    #expect(try HTTPClient.get(port, "/draft/versions.zip?id=\(id)", headers: bearer).status == 403)
    #expect(running.isRunning)
    #expect(running.stop() == 0)
  }
}
