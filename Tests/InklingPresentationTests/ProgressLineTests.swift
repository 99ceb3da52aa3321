import InklingPresentation
import InklingTestSupport
import Testing

@Suite struct ProgressLineTests {
  @Test func silentWhenNotATerminal() {
    let written = Captured()
    let progress = ProgressLine(isEnabled: false, output: written.append)
    progress.update("Importing 1 of 2")
    progress.finish()
    #expect(written.value == "")
  }

  @Test func redrawsInPlaceAndNeverWraps() {
    let written = Captured()
    let progress = ProgressLine(isEnabled: true, width: 10, output: written.append)
    progress.update("Importing 1 of 2")
    progress.update("猫 done")
    progress.finish()
    #expect(written.value == "\r\u{1B}[2KImporting…\r\u{1B}[2K猫 done\r\u{1B}[2K")
  }

  @Test func terminalCheckAnswers() {
    // Under `swift test` stderr may or may not be a terminal; the check must simply not crash
    // and agree with itself.
    #expect(Terminal.isStandardErrorATerminal == Terminal.isStandardErrorATerminal)
  }
}
