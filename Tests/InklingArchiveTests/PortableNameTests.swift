// The names of a zip's entries: every common unzip must write each as it is, on any system,
// and two of them must never become one there (PortableName.swift). What a folder import
// cannot make (a stored name ending in a dot, a C1 control) is checked here; the zips `serve`
// hands out are unpacked by zipfile and unzip in Tests/Contract.

import Testing

@testable import InklingArchive

@Suite struct PortableNameTests {
  @Test func whatWindowsRefusesBecomesAnUnderscore() {
    #expect(PortableName.of("Plan-B-2025-10-05T14:03:12Z.inkling") == "Plan-B-2025-10-05T14_03_12Z.inkling")
    #expect(PortableName.of(#"a"b<c>d|e?f*g\h.inkling"#) == "a_b_c_d_e_f_g_h.inkling")
    #expect(PortableName.of("tab\there\u{85}.inkling") == "tab_here_.inkling")
  }

  @Test func invisibleAndDirectionChangingCharactersGo() {
    #expect(PortableName.of("x\u{202E}gnp.exe.inkling") == "x_gnp.exe.inkling")
    #expect(PortableName.of("a\u{2068}b\u{2069}\u{200B}.inkling") == "a_b__.inkling")
    // What Quoted keeps as written stays: a joiner inside an emoji, accents, other scripts.
    #expect(PortableName.of("👩‍🎨 Café 音符.inkling") == "👩‍🎨 Café 音符.inkling")
  }

  @Test func trailingDotsAndSpacesAreKeptApart() {
    #expect(PortableName.of("Notes.") == "Notes_")
    #expect(PortableName.of("Notes . ") == "Notes___")
    #expect(PortableName.of("Notes") == "Notes")
  }

  @Test func deviceNamesStopBeingDevices() {
    #expect(PortableName.of("CON.inkling") == "CON_.inkling")
    #expect(PortableName.of("con") == "con_")
    #expect(PortableName.of("Lpt1.tar.inkling") == "Lpt1_.tar.inkling")
    #expect(PortableName.of("COM¹.inkling") == "COM¹_.inkling")
    #expect(PortableName.of("NUL .inkling") == "NUL _.inkling")
    #expect(PortableName.of("CONSOLE.inkling") == "CONSOLE.inkling")
    #expect(PortableName.of("CON-2025-10-05T14:03:12Z.inkling") == "CON-2025-10-05T14_03_12Z.inkling")
  }
}
