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

  @Test func refusesImpossibleStampsAndOtherExtensions() throws {
    #expect(DraftFileName("Cat-2025-10-05T14:03:12Z.json") == nil)
    #expect(DraftFileName(".inkling") == nil)
    // Issue 31, item 13: a date that does not exist is named as such, and the name is the draft's.
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
