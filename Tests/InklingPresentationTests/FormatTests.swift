// People's formats shared by the command line and the web pages.

import Foundation
import InklingCorpus
import InklingFormats
import InklingPresentation
import Testing

@Suite struct FormatTests {
  @Test func minutesAreTheCLibrarysLocalTime() {
    var random = SeededRandom(seed: 0xDA7E)
    let samples =
      [0, -1, 1_735_689_600, 253_402_300_799, -62_135_596_800]
      + (0..<500).map { _ in Int.random(in: -2_000_000_000...4_000_000_000, using: &random) }
    for seconds in samples {
      let date = Date(timeIntervalSince1970: Double(seconds))
      var value = time_t(seconds)
      var local = tm()
      localtime_r(&value, &local)
      let expected = String(
        format: "%04d-%02d-%02d %02d:%02d", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday, local.tm_hour,
        local.tm_min)
      #expect(Format.minute(date) == expected, "\(seconds)")
      #expect(Format.date(date).hasPrefix(expected), "\(seconds)")
    }
  }

  @Test func coloursAreHexWithTheirAlphaAndNeverTrap() {
    #expect(Format.color(RGBA(red: 0.1, green: 0.1, blue: 0.12, alpha: 1)) == "#1a1a1f")
    #expect(Format.color(1, 0, 0, 0.5) == "#ff0000 (alpha 0.50)")
    #expect(Format.color(.nan, 2, -1, 1) == "#00ff00")
    #expect(Format.hexByte(.infinity) == "ff")
  }
}
