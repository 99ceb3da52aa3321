// A grid whose filters do not read is still the grid's page: the sentence where the cards
// would be, the form keeping what was typed, and the ids app.js reads (#problem, #grid), so
// that the script can show the same sentence over the results it had.

import Foundation
import InklingArchive
import Testing

@Suite struct GridProblemTests {
  @Test(arguments: ["last week", "2025-13", "yesterday-ish"])
  func anUnreadableDateIsTheGridSayingSo(date: String) throws {
    let served = try SharedArchive.get()
    for key in ["since", "until", "on"] {
      let response = try served.get("/?\(key)=" + encoded(date))
      #expect(response.status == 400)
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
      let html = response.text
      let sentence =
        "\u{201C}\u{2068}\(date)\u{2069}\u{201D} is not a date: use \(DateExpression.forms)."
      #expect(html.contains("<section class=\"problem\" id=\"problem\" role=\"alert\">"), "\(key)=\(date)")
      #expect(html.contains("<p>\(Markup.escape(sentence))</p>"), "\(key)=\(date)")
      #expect(html.contains("<ul class=\"grid\" id=\"grid\"></ul>"))
      if key != "on" { #expect(Markup.attributes("value", in: html).contains(date), "the form keeps \(key)") }
      // The JSON twin says the same, without the isolates: JSON strings are exact.
      let api = try served.get("/api/drafts?\(key)=" + encoded(date))
      #expect(api.status == 400)
      #expect(
        (try api.json() as? [String: Any])?["error"] as? String
          == "\u{201C}\(date)\u{201D} is not a date: use \(DateExpression.forms).")
    }
  }
}
