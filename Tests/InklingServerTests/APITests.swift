// The JSON under /api/ is what the command line's --json prints, plus links: each object of
// the API, with the fields it adds removed, equals the CLI's object for the same archive.

import Foundation
import InklingArchive
import Testing

@Suite struct APITests {
  func json(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
  }

  /// `object` without `keys`.
  func removing(_ keys: [String], from object: Any) -> NSDictionary {
    var copy = object as? [String: Any] ?? [:]
    for key in keys { copy[key] = nil }
    return copy as NSDictionary
  }

  @Test func draftsAreListsDrafts() throws {
    let served = try SharedArchive.get()
    let cli = try Binary.run(["--archive", served.archivePath, "--json", "list"])
    #expect(cli.status == 0)
    let listed = try #require(try json(cli.stdoutBytes)["drafts"] as? [Any])
    var api: [Any] = []
    var next: String? = "/api/drafts?limit=7"
    while let target = next {
      let response = try served.get(target)
      #expect(response.status == 200)
      #expect(response.header("Content-Type") == "application/json; charset=utf-8")
      let page = try json(response.body)
      let drafts = try #require(page["drafts"] as? [[String: Any]])
      for draft in drafts {
        let name = try #require(draft["name"] as? String)
        let id = try #require(draft["id"] as? Int)
        #expect(draft["url"] as? String == "/draft?id=\(id)", "\(name)")
        #expect((draft["thumbnail"] as? String)?.hasPrefix("/versions/") == true)
      }
      api += drafts
      next = page["next"] as? String
      // Every page but the last is as long as asked: the next link keeps the limit.
      if next != nil { #expect(drafts.count == 7, "\(target)") }
      if let next { #expect(next.contains("limit=7"), "\(next)") }
    }
    #expect(api.count == listed.count)
    for (a, b) in zip(api, listed) { #expect(removing(["id", "url", "thumbnail"], from: a) == b as? NSDictionary) }
  }

  @Test func aDraftTrashedWhilePagingIsOnNoLaterPage() throws {
    let served = try ServedArchive()
    let first = try json(try served.get("/api/drafts?limit=5").body)
    let seen = try #require(first["drafts"] as? [[String: Any]]).compactMap { $0["name"] as? String }
    let writer = try Archive(path: served.archivePath)
    let later = try writer.drafts().map(\.name).filter { !seen.contains($0) }
    let trashed = Set(later.prefix(3))
    for name in trashed { _ = try writer.delete(draft: name) }
    var names = seen
    var next = first["next"] as? String
    while let target = next {
      let page = try json(try served.get(target).body)
      names += try #require(page["drafts"] as? [[String: Any]]).compactMap { $0["name"] as? String }
      next = page["next"] as? String
    }
    #expect(names.filter(trashed.contains).isEmpty, "no trashed draft on a later page")
    #expect(names.count == seen.count + later.count - trashed.count, "every live draft on one page")
    // Its own page stays at its URL while it is in the trash, as `history` still shows it.
    for name in trashed { #expect(try served.get("/api/draft?name=" + encoded(name)).status == 200) }
  }

  @Test func aDraftIsItsHistory() throws {
    let served = try SharedArchive.get()
    for name in ["<script>alert(1)<-script>", "..", "Café 猫 🎨"] + (try served.archive().drafts().prefix(4).map(\.name))
    {
      let cli = try json(try Binary.run(["--archive", served.archivePath, "--json", "history", name]).stdoutBytes)
      let response = try served.get("/api/draft?name=" + encoded(name))
      #expect(response.status == 200)
      let api = try json(response.body)
      #expect(api["draft"] as? String == name)
      let versions = try #require(api["versions"] as? [[String: Any]])
      let cliVersions = try #require(cli["versions"] as? [Any])
      #expect(versions.count == cliVersions.count)
      for (a, b) in zip(versions, cliVersions) {
        #expect(removing(["id", "changes", "url", "thumbnail", "render", "file"], from: a) == b as? NSDictionary)
        let id = try #require(a["id"] as? Int)
        #expect(a["file"] as? String == "/versions/\(id)/file")
        let changes = try #require(a["changes"] as? [String: Int])
        #expect(Set(changes.keys) == ["added", "removed", "hidden", "unhidden", "partlyErased"])
      }
    }
  }

  @Test func aVersionIsShow() throws {
    let served = try SharedArchive.get()
    let name = try #require(try served.archive().drafts().first { $0.versionCount >= 2 }?.name)
    for strokes in [false, true] {
      let cli = try json(
        try Binary.run(
          ["--archive", served.archivePath, "--json", "show", name, "--version", "2"] + (strokes ? ["--strokes"] : [])
        ).stdoutBytes)
      let response = try served.get("/api/draft?name=\(encoded(name))&version=2" + (strokes ? "&strokes=1" : ""))
      #expect(response.status == 200)
      let api = try json(response.body)
      #expect(api["draft"] as? String == cli["draft"] as? String)
      // The API pages the stroke list (VersionView.strokesPerPage), which these drawings fit in.
      let drawing = try #require(api["drawing"] as? [String: Any])
      #expect(drawing["strokesNext"].map { $0 is NSNull } ?? !strokes)
      #expect(
        NSDictionary(dictionary: drawing.filter { $0.key != "strokesFrom" && $0.key != "strokesNext" })
          == cli["drawing"] as? NSDictionary)
      let version = try #require(api["version"])
      #expect(
        removing(["id", "changes", "url", "thumbnail", "render", "file"], from: version) == cli["version"]
          as? NSDictionary)
    }
  }

  @Test func errorsAreJSONToo() throws {
    let served = try SharedArchive.get()
    let missing = try served.get("/api/draft?name=nobody")
    #expect(missing.status == 404)
    #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
    #expect((try json(missing.body)["error"] as? String)?.contains("nobody") == true)
    let syntax = try served.get("/api/drafts?q=" + encoded("strokes:>"))
    #expect(syntax.status == 400)
    let body = try json(syntax.body)
    #expect(body["query"] as? String == "strokes:>")
    #expect(body["column"] as? Int != nil)
    #expect((body["error"] as? String)?.contains("^") == true)
    #expect(try served.get("/api/drafts?limit=0").status == 400)
    #expect(try served.get("/api/drafts?limit=501").status == 400)
    #expect(try served.get("/api/nothing").status == 404)
    #expect(try served.get("/api/nothing").header("Content-Type") == "application/json; charset=utf-8")
  }
}
