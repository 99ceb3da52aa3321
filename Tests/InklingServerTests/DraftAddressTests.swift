// Every listed draft opens: pages link to drafts by id, so a name no request target can carry
// (a tab, a newline, a CR) still has a page, and that page shows the name. Addresses by name
// keep working for names a URL can hold.

import Foundation
import InklingArchive
import Testing

@Suite struct DraftAddressTests {
  static let controlNames = ["Tab\there", "New\nline", "Carriage\rreturn", "Both\r\nends\t"]

  /// A served archive with a draft for each of `controlNames`, two saves each.
  static func servedWithControlNames() throws -> ServedArchive {
    let served = try ServedArchive()
    let folder = served.draftsFolder + "/control"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = try FileManager.default.contentsOfDirectory(atPath: served.draftsFolder)
      .filter { $0.hasSuffix(".inkling") }.sorted()[0]
    let bytes = try Data(contentsOf: URL(fileURLWithPath: served.draftsFolder + "/" + source))
    for (index, name) in controlNames.enumerated() {
      for hour in [10, 11] {
        let file = folder + "/" + name + String(format: "-2025-12-%02dT%d:00:00Z.inkling", index + 1, hour)
        try bytes.write(to: URL(fileURLWithPath: file))
      }
    }
    _ = try Archive(path: served.archivePath).importFiles(at: [folder])
    return served
  }

  @Test func everyDraftTheAPIListsOpensUnderItsName() throws {
    let served = try Self.servedWithControlNames()
    var next: String? = "/api/drafts?limit=50"
    var seen: [String] = []
    while let target = next {
      let page = try #require(try served.get(target).json() as? [String: Any])
      for draft in try #require(page["drafts"] as? [[String: Any]]) {
        let name = try #require(draft["name"] as? String)
        let url = try #require(draft["url"] as? String)
        let id = try #require(draft["id"] as? Int)
        #expect(url == "/draft?id=\(id)")
        let html = try served.get(url)
        #expect(html.status == 200, "\(url) for \(name.debugDescription): \(html.text.prefix(200))")
        #expect(html.text.contains(Markup.escape(name)), "\(url) does not show \(name.debugDescription)")
        let api = try #require(try served.get("/api/draft?id=\(id)").json() as? [String: Any])
        #expect(api["draft"] as? String == name)
        #expect(api["draftID"] as? Int == id)
        let versions = try #require(api["versions"] as? [[String: Any]])
        for version in versions {
          let page = try served.get(try #require(version["url"] as? String))
          #expect(page.status == 200, "\(version["url"] ?? "") for \(name.debugDescription)")
        }
        seen.append(name)
      }
      next = page["next"] as? String
    }
    #expect(Set(Self.controlNames).isSubset(of: Set(seen)))
  }

  @Test func everyCardOfTheGridOpens() throws {
    let served = try Self.servedWithControlNames()
    var next: String? = "/?q=" + encoded("versions:2")
    var opened = 0
    while let target = next {
      let grid = try served.get(target)
      #expect(grid.status == 200)
      for link in Markup.attributes("href", in: grid.text) where link.hasPrefix("/draft?") {
        let page = try served.get(link)
        #expect(page.status == 200, "\(link): \(page.text.prefix(200))")
        let version = try served.get(link + "&version=2")
        #expect(version.status == 200, "\(link)&version=2: \(version.text.prefix(200))")
        opened += 1
      }
      next = Markup.link(id: "more", in: grid.text)
    }
    #expect(opened >= Self.controlNames.count)
  }

  @Test func namesAndIdsBothAddressADraft() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let draft = try #require(try archive.drafts().first { $0.versionCount >= 2 })
    let byName = try served.get("/api/draft?name=" + encoded(draft.name))
    let byID = try served.get("/api/draft?id=\(draft.id)")
    #expect(byName.status == 200)
    #expect(byName.body == byID.body)
    #expect(try served.get("/draft?name=\(encoded(draft.name))&version=2").status == 200)
    #expect(try served.get("/draft?id=\(draft.id)&version=2").status == 200)
    // An id wins over a name; a malformed id is a 400 that says what an id is; an unknown one a 404.
    #expect(try served.get("/api/draft?id=\(draft.id)&name=nobody").status == 200)
    for bad in ["abc", "", "-1", "1.5", "%2B1", String(repeating: "9", count: 30)] {
      let response = try served.get("/draft?id=" + bad)
      #expect(response.status == 400, "id=\(bad)")
      #expect(response.text.contains("a draft&#39;s id is a whole number"), "id=\(bad)")
    }
    let missing = try served.get("/api/draft?id=999999999")
    #expect(missing.status == 404)
    #expect(
      (try missing.json() as? [String: Any])?["error"] as? String
        == "There is no draft 999999999 in the archive (it may have been purged, or merged into another).")
  }
}
