import InklingFormats
import Testing

/// The one rule for text that reaches a terminal: what is escaped, how, and the joiners and
/// variation selectors that are part of how a word is written.
@Suite struct QuotedTests {
  @Test func controlsBidiAndInvisibleCharactersAreEscaped() {
    #expect(Quoted.display("Esc\u{1B}[31mRED") == #""Esc\033[31mRED""#)
    #expect(Quoted.display("bell\u{07}\u{7F}\u{85}") == #""bell\a\177\u{85}""#)
    #expect(Quoted.display("x\u{202E}gnp.exe") == #""x\u{202E}gnp.exe""#)
    #expect(Quoted.display("a\u{2066}b\u{2069}") == #""a\u{2066}b\u{2069}""#)
    #expect(Quoted.display("zero\u{200B}width") == #""zero\u{200B}width""#)
    #expect(Quoted.display("\u{3164}") == #""\u{3164}""#, "a Hangul filler draws as nothing")
    #expect(Quoted.display("private\u{E000}") == #""private\u{E000}""#)
    #expect(Quoted.display("soft\u{AD}hyphen") == #""soft\u{AD}hyphen""#)
  }

  @Test func joinersAndVariationSelectorsPrintAsWrittenWhereTheyShapeTheText() {
    for written in ["👩\u{200D}💻", "می\u{200C}خواهم", "\u{2764}\u{FE0F}", "क्\u{200D}ष", "Plan-B"] {
      #expect(Quoted.display(written) == written)
      #expect(!Quoted.unsafeScalars(in: written).contains(true))
    }
    // Where they change nothing a person sees, two names would look the same.
    #expect(Quoted.display("a\u{200D}b") == #""a\u{200D}b""#)
    #expect(Quoted.display("a\u{200C}b") == #""a\u{200C}b""#)
    #expect(Quoted.display("\u{200D}👩") == #""\u{200D}👩""#)
    #expect(Quoted.display("a\u{FE0F}") == #""a\u{FE0F}""#)
    #expect(Quoted.display("👩\u{200D}\u{200D}") == #""👩\u{200D}\u{200D}""#)
    #expect(Quoted.display("می\u{200C}") == #""می\u{200C}""#)
  }

  @Test func namesWithQuotesOrBackslashesAreQuotedSentencesKeepTheirs() {
    #expect(Quoted.display(#"say "hi""#) == #""say \"hi\"""#)
    #expect(Quoted.name("Plan-B") == #""Plan-B""#)
    #expect(Quoted.text(#"a.sqlite: "Dog" version 2"#) == #"a.sqlite: "Dog" version 2"#)
    #expect(Quoted.text("a.sqlite: \"Dog\u{1B}\"") == #""a.sqlite: \"Dog\033\"""#)
  }
}
