import Foundation
import Testing

@testable import InklingFormats

@Suite struct DraftFileNameTests {
  /// 2025-10-05T14:03:12Z in milliseconds since 1970.
  let october5: Int64 = 1_759_672_992_000

  @Test func splitsOnTheLastDashFollowedByAStamp() throws {
    let name = try #require(DraftFileName("Plan-B-2025-10-05T14:03:12Z.inkling"))
    #expect(name.draftName == "Plan-B")
    #expect(name.savedMilliseconds == october5)
    #expect(name.fallbacks.isEmpty)
  }

  @Test func keepsEveryOtherCharacterOfTheName() throws {
    for draft in ["Lesson 12 – fractions", "a:b", "🐱 cat", "日本語のメモ", "-", "2025-10-05"] {
      let name = try #require(DraftFileName("\(draft)-2025-10-05T14:03:12Z.inkling"))
      #expect(name.draftName == draft)
      #expect(name.savedMilliseconds == october5)
    }
  }

  @Test func treatsNFDAndNFCAsOneName() throws {
    let nfd = try #require(DraftFileName("Cafe\u{301}-2025-10-05T14:03:12Z.inkling"))
    #expect(nfd.draftName == "Caf\u{E9}")
  }

  @Test func fallsBackAndSaysSo() throws {
    let copy = try #require(DraftFileName("Cat-2025-10-05T14:03:12Z 2.inkling"))
    #expect(copy.draftName == "Cat")
    #expect(copy.savedMilliseconds == october5)
    #expect(copy.fallbacks == [.copySuffix("2")])

    let numbered = try #require(DraftFileName("Cat-2025-10-05T14:03:12Z (1).inkling"))
    #expect(numbered.fallbacks == [.copySuffix("(1)")])

    let offset = try #require(DraftFileName("Cat-2025-10-05T16:03:12+02:00.inkling"))
    #expect(offset.savedMilliseconds == october5)
    #expect(offset.fallbacks == [.offset("+02:00")])

    let fraction = try #require(DraftFileName("Cat-2025-10-05T14:03:12.250Z.inkling"))
    #expect(fraction.savedMilliseconds == october5 + 250)
    #expect(fraction.fallbacks == [.fractionalSeconds])

    let bare = try #require(DraftFileName("Cat.inkling"))
    #expect(bare.draftName == "Cat")
    #expect(bare.savedMilliseconds == nil)
    #expect(bare.fallbacks == [.noStamp])

    let room = try #require(DraftFileName("Room 101.inkling"))
    #expect(room.draftName == "Room 101")

    let untitled = try #require(DraftFileName("-2025-10-05T14:03:12Z.inkling"))
    #expect(untitled.draftName == "Untitled")
    #expect(untitled.fallbacks == [.emptyName])
  }

  @Test func readsStampsWhoseColonsDidNotSurviveTheTrip() throws {
    // exFAT and FAT sticks, SMB shares and Windows cannot store ':'; each tool writes another
    // character in its place, the same one for both colons.
    for standIn in ["_", "-", "\u{F03A}", "\u{A789}", "\u{FF1A}"] {
      let file = "Sketch-2-2025-10-05T14\(standIn)03\(standIn)12Z.inkling"
      let name = try #require(DraftFileName(file))
      #expect(name.draftName == "Sketch-2", "\(file)")
      #expect(name.savedMilliseconds == october5, "\(file)")
      #expect(name.fallbacks == [.colonsReplaced(Character(standIn))], "\(file)")
      #expect(name.renamed(to: "Other") == "Other-2025-10-05T14\(standIn)03\(standIn)12Z.inkling")
    }
    let both = try #require(DraftFileName("Cat-2025-10-05T16_03_12+02_00 (1).inkling"))
    #expect(both.savedMilliseconds == october5)
    #expect(both.fallbacks == [.colonsReplaced("_"), .copySuffix("(1)"), .offset("+02:00")])
    // Two different characters are not a stamp's colons: the name keeps them.
    let mixed = try #require(DraftFileName("Cat-2025-10-05T14_03-12Z.inkling"))
    #expect(mixed.savedMilliseconds == nil)
  }

  @Test func syncConflictCopiesAreVersionsOfTheirDraft() throws {
    let cases: [(String, String, String)] = [
      (
        "Cat-2025-10-05T14:03:12Z.sync-conflict-20251005-150000-ABCDEF7.inkling", "Syncthing",
        ".sync-conflict-20251005-150000-ABCDEF7"
      ),
      (
        "Cat-2025-10-05T14:03:12Z (Anna's conflicted copy 2025-10-05).inkling", "Dropbox",
        " (Anna's conflicted copy 2025-10-05)"
      ),
      (
        "Cat-2025-10-05T14:03:12Z (conflicted copy 2025-10-05 150000).inkling", "Nextcloud",
        " (conflicted copy 2025-10-05 150000)"
      ),
      ("Cat-2025-10-05T14:03:12Z-LAPTOP.inkling", "OneDrive", "-LAPTOP"),
      ("Cat-2025-10-05T14:03:12Z(1).inkling", "Google Drive", "(1)"),
      (
        "Cat-2025-10-05T14_03_12Z.sync-conflict-20251005-150000-ABCDEF7.inkling", "Syncthing",
        ".sync-conflict-20251005-150000-ABCDEF7"
      ),
    ]
    for (file, tool, suffix) in cases {
      let name = try #require(DraftFileName(file))
      #expect(name.draftName == "Cat", "\(file)")
      #expect(name.savedMilliseconds == october5, "\(file)")
      #expect(name.fallbacks.contains(.syncConflict(tool: tool, suffix: suffix)), "\(file): \(name.fallbacks)")
      #expect(!name.fallbacks.contains { if case .copySuffix = $0 { true } else { false } }, "\(file)")
    }
    // A dash and digits alone is a copy number or part of a name, not a computer.
    #expect(DraftFileName("Cat-2025-10-05T14:03:12Z-2.inkling")?.savedMilliseconds == nil)
  }

  @Test func refusesImpossibleStampsAndOtherExtensions() throws {
    #expect(DraftFileName("Cat-2025-10-05T14:03:12Z.json") == nil)
    #expect(DraftFileName(".inkling") == nil)
    // A date that does not exist is named as such, and the name is the draft's.
    let impossible = try #require(DraftFileName("Cat-2025-02-30T14:03:12Z.inkling"))
    #expect(impossible.savedMilliseconds == nil)
    #expect(impossible.draftName == "Cat")
    #expect(impossible.fallbacks == [.invalidStamp("2025-02-30T14:03:12Z")])
    #expect(impossible.renamed(to: "Dog") == "Dog-2025-02-30T14:03:12Z.inkling")
    let hour = try #require(DraftFileName("Cat-2025-10-05T25:03:12+02:00.inkling"))
    #expect(hour.draftName == "Cat" && hour.fallbacks == [.invalidStamp("2025-10-05T25:03:12+02:00")])
    // Text after the time makes it part of a name.
    let words = try #require(DraftFileName("Meeting-2025-02-30T10:00:00 notes.inkling"))
    #expect(words.draftName == "Meeting-2025-02-30T10:00:00 notes" && words.fallbacks == [.noStamp])
    // A leap second is read as the next minute's first second, and said.
    let leap = try #require(DraftFileName("Cat-2016-12-31T23:59:60Z.inkling"))
    #expect(leap.savedMilliseconds == 1_483_228_800_000)
    #expect(leap.fallbacks == [.leapSecond])
    #expect(DraftFileName("CAT-2025-10-05T14:03:12Z.INKLING")?.draftName == "CAT")
  }
}
