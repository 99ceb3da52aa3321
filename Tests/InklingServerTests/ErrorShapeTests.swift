// The API's errors are exact JSON: the sentence a page shows, without the isolates a page
// wraps names in. And a draft page offers no time-lapse that cannot be made.

import Foundation
import InklingArchive
import InklingCorpus
import Testing

@Suite struct ErrorShapeTests {
  /// A served archive with a draft whose one drawing this build cannot read.
  static func servedWithOpaqueDraft() throws -> ServedArchive {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 2, versionsPerDraft: 1...2, seed: 5), hostile: false)
    let opaque = #"{"drawingData":"AAECAw==","color":{"r":1,"g":1,"b":1,"a":1}}"#
    let file = served.draftsFolder + "/Opaque-2025-10-05T14:03:12Z.inkling"
    try Data(opaque.utf8).write(to: URL(fileURLWithPath: file))
    _ = try Archive(path: served.archivePath).importFiles(at: [file])
    return served
  }

  @Test func apiErrorsCarryNoIsolates() throws {
    let served = try Self.servedWithOpaqueDraft()
    for target in ["/api/draft?name=Opaqu", "/api/draft?name=Opaque&version=9"] {
      let answer = try served.get(target)
      #expect(answer.status == 404, "\(target)")
      let object = try #require(try answer.json() as? [String: Any], "\(target)")
      let error = try #require(object["error"] as? String, "\(target)")
      #expect(object["status"] as? Int == 404)
      #expect(!error.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) }, "\(target): \(error)")
      #expect(error.contains("\u{201C}Opaqu"), "\(error)")
    }
    // The page for people keeps them: there a name sits in text of the other direction.
    let page = try served.get("/draft?name=Opaqu")
    #expect(page.text.contains("\u{201C}\u{2068}Opaqu\u{2069}\u{201D}"))
  }

  @Test func aDraftWithNoReadableDrawingLinksNoVideo() throws {
    let served = try Self.servedWithOpaqueDraft()
    let page = try served.get("/draft?name=Opaque")
    #expect(page.status == 200)
    #expect(!page.text.contains("timelapse.mp4"), "\(page.text)")
    #expect(!page.text.contains("data-marks"))
    #expect(page.text.contains("No time-lapse: none of its drawings can be read."))
  }
}
