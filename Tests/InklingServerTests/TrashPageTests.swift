// The trash in the web view: `/trash` lists what `list --trash` lists, with when each went;
// a trashed draft's pages say so and show the command that brings it back (quoted so that a
// shell runs it as shown); a renamed draft's downloads say they keep the original file name.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct TrashPageTests {
  func json(_ response: RawResponse) throws -> [String: Any] {
    try #require(try response.json() as? [String: Any])
  }

  @Test func theTrashPageIsListTrash() throws {
    let served = try ServedArchive()
    let empty = try served.get("/trash")
    #expect(empty.status == 200)
    #expect(empty.text.contains("The trash is empty."))
    let writer = try Archive(path: served.archivePath)
    let names = Array(try writer.drafts().map(\.name).prefix(4)) + ["\"><img src=x onerror=alert(1)>"]
    for name in names { _ = try writer.delete(draft: name) }

    let cli = try Binary.run(["--archive", served.archivePath, "--json", "list", "--trash"])
    #expect(cli.status == 0)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdoutBytes)) as? [String: Any])
    let listed = try #require(document["drafts"] as? [[String: Any]])
    let api = try json(try served.get("/api/trash"))
    let drafts = try #require(api["drafts"] as? [[String: Any]])
    #expect(api["total"] as? Int == names.count)
    #expect(drafts.count == listed.count)
    for (a, b) in zip(drafts, listed) {
      var trimmed = a
      trimmed["id"] = nil
      trimmed["url"] = nil
      #expect(NSDictionary(dictionary: trimmed) == NSDictionary(dictionary: b))
      #expect(a["url"] as? String == "/draft?id=\(a["id"] as? Int ?? 0)")
    }

    let page = try served.get("/trash")
    #expect(page.status == 200)
    let rows = page.text.components(separatedBy: "<tr><td>").dropFirst()
    #expect(rows.count == listed.count)
    for (row, draft) in zip(rows, listed) {
      let name = draft["name"] as? String ?? ""
      #expect(row.contains("<bdi>\(Markup.escape(name))</bdi>"), "\(name)")
      // When it went, as a <time> of the deletion date (to the second) that `list --trash` gives.
      let deleted = draft["deleted"] as? String ?? "none"
      #expect(row.contains("<time datetime=\"\(deleted.prefix(19))"), "\(row) \(deleted)")
    }
    #expect(!page.text.contains("<img src=x"))
    // The grid leaves them out and links to the trash.
    let grid = try served.get("/?sort=name")
    #expect(grid.text.contains("<a class=\"trash-link\" href=\"/trash\">Trash</a>"))
  }

  @Test func aTrashedDraftsPagesSaySoAndHowToBringItBack() throws {
    let served = try ServedArchive()
    let writer = try Archive(path: served.archivePath)
    let name = "'single' & \"double\""
    let live = try #require(try writer.drafts().first { $0.versionCount >= 2 && $0.name != name })
    let trashed = try #require(try writer.drafts(matching: DraftQuery(name: name)).first)
    _ = try writer.delete(draft: name)

    let livePage = try served.get("/draft?id=\(live.id)")
    #expect(livePage.status == 200)
    #expect(!livePage.text.contains("id=\"trashed\""))
    for target in ["/draft?id=\(trashed.id)", "/draft?id=\(trashed.id)&version=1", "/draft?name=" + encoded(name)] {
      let page = try served.get(target)
      #expect(page.status == 200, "\(target)")
      #expect(page.text.contains("<strong>In the trash</strong> since <time"), "\(target)")
      // As the page's other command lines, it names the archive this server reads: it works
      // as pasted, whatever archive the reader's shell would default to.
      let command = Markup.escape(
        "inkling-archive --archive \(Escape.shellWord(served.archivePath)) undelete -- "
          + #"''\''single'\'' & "double"'"#)
      #expect(page.text.contains("<code class=\"command\">\(command)</code>"), "\(target): \(page.text)")
    }
    let api = try json(try served.get("/api/draft?id=\(trashed.id)"))
    #expect(api["deleted"] is String)
    #expect(try json(try served.get("/api/draft?id=\(live.id)"))["deleted"] == nil)
    let version = try json(try served.get("/api/draft?id=\(trashed.id)&version=1"))
    #expect(version["deleted"] is String)
  }

  /// A trashed draft's versions are drawn only for its own pages (which ask with `trash=1`),
  /// and never stored in the archive's cache: a client walking version ids makes no picture of
  /// what the user put away.
  @Test func aTrashedDraftsPicturesAreDrawnOnlyForItsPagesAndNotStored() throws {
    let served = try ServedArchive()
    let writer = try Archive(path: served.archivePath)
    let draft = try #require(try writer.drafts().first { $0.versionCount >= 2 })
    let ids = try writer.timeline(of: draft.name).map(\.id)
    _ = try writer.delete(draft: draft.name)
    served.server.flushThumbnails()
    let before = ThumbnailQuotaTests.archiveBytes(served)

    for id in ids {
      for path in ["thumbnail.png?size=256", "thumbnail.png?size=1024", "render.png?scale=1"] {
        let walked = try served.get("/versions/\(id)/\(path)")
        #expect(walked.status == 404, "\(path)")
        #expect(walked.text.contains("in the trash"), "\(walked.text)")
      }
      #expect(try served.get("/versions/\(id)/file").status == 200)
    }
    let page = try served.get("/draft?id=\(draft.id)")
    let thumbnails = page.text.components(separatedBy: "<img src=\"").dropFirst().map {
      Markup.unescape(String($0.prefix { $0 != "\"" }))
    }
    #expect(thumbnails.count == ids.count)
    for url in thumbnails {
      #expect(url.hasSuffix("&trash=1"), "\(url)")
      let picture = try served.get(url)
      #expect(picture.status == 200 && picture.header("Content-Type") == "image/png", "\(url)")
    }
    let version = try served.get("/draft?id=\(draft.id)&version=1")
    #expect(version.text.contains("render.png?scale=1&amp;r=") && version.text.contains("&amp;trash=1"))
    let api = try #require(try served.get("/api/draft?id=\(draft.id)").json() as? [String: Any])
    let versions = try #require(api["versions"] as? [[String: Any]])
    #expect(versions.allSatisfy { ($0["thumbnail"] as? String)?.hasSuffix("&trash=1") == true })
    served.server.flushThumbnails()
    #expect(ThumbnailQuotaTests.archiveBytes(served) == before)

    // Back from the trash, the same versions are drawn for anyone again.
    _ = try writer.undelete(draft: draft.name)
    #expect(try served.get("/versions/\(ids[0])/thumbnail.png?size=256").status == 200)
  }

  @Test func aRenamedDraftsDownloadsKeepTheirOriginalName() throws {
    let served = try ServedArchive()
    let writer = try Archive(path: served.archivePath)
    let draft = try #require(try writer.drafts().first { $0.versionCount >= 2 })
    let old = draft.name
    _ = try writer.rename(draft: old, to: "Renamed since")
    let page = try served.get("/draft?id=\(draft.id)")
    #expect(page.status == 200)
    let notes = page.text.components(separatedBy: "<span class=\"note renamed\">").count - 1
    #expect(notes == draft.versionCount)
    #expect(page.text.contains("the draft was called <bdi>\(Markup.escape(old))</bdi> when this was saved"))
    let history = try writer.history(of: "Renamed since")
    let file = try served.get("/versions/\(try writer.timeline(of: "Renamed since")[0].id)/file")
    #expect(file.header("Content-Disposition")?.hasSuffix("''" + encoded(history[0].fileName)) == true)
    #expect(history[0].fileName.hasPrefix(old))
    // A draft not renamed says nothing of it.
    let other = try #require(try writer.drafts().first { $0.name != "Renamed since" })
    #expect(!(try served.get("/draft?id=\(other.id)").text.contains("note renamed")))
  }

  /// Each word runs as itself in sh (dash), bash, zsh and fish, which `scripts/setup` installs.
  @Test(arguments: [
    "Plan-B", "it's", "$(touch /tmp/x)", "a b\tc", "New\nline", "\u{202E}evil\u{202D} gnp.exe", "back\\slash'",
    "-rf", "=cmd", "~user", "", "Café 猫 🎨", "a\u{2028}b", "50% \\n 'q' \\\\", "tab\t'and\\", "-n\tx", "-\u{202E}",
  ])
  func shellWordsRunAsThemselves(word: String) throws {
    let quoted = Escape.shellWord(word)
    for shell in ["/bin/sh", "/bin/bash", "/usr/bin/zsh", "/usr/bin/fish"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: shell)
      process.arguments = ["-c", "printf %s " + quoted]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(Array(output) == Array(word.utf8), "\(shell): \(quoted)")
    }
    #expect(Escape.shellWord("Plan-B") == "Plan-B")
    #expect(Escape.shellWord("it's") == "'it'\\''s'")
    #expect(Escape.shellWord("New\nline") == "\"$(printf 'New\\012line')\"")
  }
}
