import InklingCorpus
import Testing

@testable import InklingStore

@Suite struct FingerprintTableTests {
  /// Agrees with a Dictionary over many keys, through every growth of the table.
  @Test func agreesWithADictionary() {
    var table = FingerprintTable()
    var reference: [StrokeFingerprint: Int64] = [:]
    var random = SeededRandom(seed: 0xF1_4E2)
    var keys: [StrokeFingerprint] = []
    for n in 0..<5_000 {
      let key = StrokeFingerprint(high: random.next(), low: random.next())
      keys.append(key)
      table[key] = Int64(n)
      reference[key] = Int64(n)
    }
    for key in keys.prefix(100) {
      table[key] = 7
      reference[key] = 7
    }
    #expect(table.count == reference.count)
    for key in keys { #expect(table[key] == reference[key]) }
    #expect(table[StrokeFingerprint(high: 1, low: 2)] == nil)
  }

  /// Keys whose low words are equal share a first slot; they are told apart by the whole key,
  /// also after the table grows.
  @Test func collidingKeysAreKeptApart() {
    var table = FingerprintTable()
    for n in 0..<200 { table[StrokeFingerprint(high: UInt64(n), low: 64)] = Int64(n) }
    #expect(table.count == 200)
    for n in 0..<200 { #expect(table[StrokeFingerprint(high: UInt64(n), low: 64)] == Int64(n)) }
    #expect(table[StrokeFingerprint(high: 200, low: 64)] == nil)
    #expect(table[StrokeFingerprint(high: 5, low: 65)] == nil)
  }

  @Test func insertIfAbsentKeepsTheFirstValue() {
    var table = FingerprintTable()
    let key = StrokeFingerprint(high: 10, low: 20)
    #expect(table.insertIfAbsent(1, forKey: key) == nil)
    #expect(table.insertIfAbsent(2, forKey: key) == 1)
    #expect(table[key] == 1)
    #expect(table.count == 1)
  }

  /// Emptied small (cleared in place) or large (storage let go), the table is usable again.
  @Test(arguments: [10, 3_000])
  func removeAllEmptiesTheTable(keys: Int) {
    var table = FingerprintTable()
    let key = { (n: Int) in StrokeFingerprint(high: UInt64(n), low: UInt64(n) &* 0x9E37_79B9_7F4A_7C15) }
    for n in 0..<keys { table[key(n)] = Int64(n) }
    table.removeAll()
    #expect(table.count == 0)
    for n in 0..<keys { #expect(table[key(n)] == nil) }
    table[key(1)] = 1
    #expect(table[key(1)] == 1)
    #expect(table.count == 1)
  }
}
