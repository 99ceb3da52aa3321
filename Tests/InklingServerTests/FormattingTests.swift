// The pages' dates: UTC in <time datetime> as JSON writes them, local time as the CLI shows it.

import Foundation
import InklingCorpus
import InklingFormats
import InklingPresentation
import Testing

@testable import InklingServer

@Suite struct FormattingTests {
  @Test func datesAreTheCommandLinesDates() {
    var random = SeededRandom(seed: 0xDA7E)
    let samples =
      [0, -1, 1_735_689_600, 253_402_300_799, -62_135_596_800]
      + (0..<500).map { _ in
        Int.random(in: -2_000_000_000...4_000_000_000, using: &random)
      }
    for seconds in samples {
      let date = Date(timeIntervalSince1970: Double(seconds))
      #expect(Formatting.iso(date) == ISO8601UTC.string(date), "\(seconds)")
      var value = time_t(seconds)
      var local = tm()
      localtime_r(&value, &local)
      let expected = String(
        format: "%04d-%02d-%02d %02d:%02d", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday, local.tm_hour,
        local.tm_min)
      #expect(Formatting.date(date) == expected, "\(seconds)")
    }
    #expect(
      Formatting.time(Date(timeIntervalSince1970: 0)).markup.hasPrefix("<time datetime=\"1970-01-01T00:00:00Z\">"))
  }
}
