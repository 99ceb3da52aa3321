// The pages' dates: UTC in <time datetime> as JSON writes them, local time as the CLI shows it.

import Foundation
import InklingFormats
import InklingPresentation
import Testing

@testable import InklingServer

@Suite struct FormattingTests {
  @Test func aPageDateIsTheCommandLinesLocalTimeAndTheJSONsInstant() {
    for seconds in [0, 1_735_689_600, 1_759_673_052] {
      let date = Date(timeIntervalSince1970: Double(seconds))
      #expect(
        Formatting.time(date).markup
          == "<time datetime=\"\(ISO8601UTC.string(date))\">\(Format.minute(date))</time>")
      #expect(Format.date(date).hasPrefix(Format.minute(date)))
    }
    #expect(
      Formatting.time(Date(timeIntervalSince1970: 0)).markup.hasPrefix("<time datetime=\"1970-01-01T00:00:00Z\">"))
  }
}
