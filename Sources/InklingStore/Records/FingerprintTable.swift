// A hash table from stroke fingerprints to numbers, for the drawing index's caches (the
// writer's stroke ids, the indexer's remembered facts), which look up every new stroke of
// every save. A fingerprint is already a hash (two XXH64), so its own bits choose the slot;
// a Dictionary would hash each key again with SipHash (`Hasher`) at every look-up.
//
// Open addressing with linear probing, at most half full. Keys are never removed one by one
// (the caches only grow, then are emptied whole), so a probe ends at the first empty slot.
// Not generic, and its values are plain numbers: a generic table in this module is not
// specialised for its callers in others, and each slot access would go through type metadata.

package struct FingerprintTable {
  private var keys: [StrokeFingerprint] = []
  /// The value of each slot; `empty` for a free slot.
  private var values: [Int64] = []
  private static let empty: Int64 = -1
  package private(set) var count = 0

  /// An empty table; it allocates at its first key.
  package init() {}

  /// The slot holding `key`, or the free slot where it would go (`values` must not be empty).
  @inline(__always)
  private func slot(of key: StrokeFingerprint) -> (index: Int, found: Bool) {
    let mask = values.count - 1  // a power of two
    var index = Int(truncatingIfNeeded: key.low) & mask
    while values[index] != Self.empty {
      if keys[index] == key { return (index, true) }
      index = (index + 1) & mask
    }
    return (index, false)
  }

  /// The value under `key`. Values must not be negative.
  package subscript(key: StrokeFingerprint) -> Int64? {
    get {
      guard count > 0 else { return nil }
      let (index, found) = slot(of: key)
      return found ? values[index] : nil
    }
    set {
      guard let newValue, newValue >= 0 else {
        preconditionFailure("a FingerprintTable holds numbers from 0 and removes none")
      }
      if let existing = insertIfAbsent(newValue, forKey: key), existing != newValue {
        values[slot(of: key).index] = newValue
      }
    }
  }

  /// Adds `value` (not negative) under `key` unless the key is there already: then returns
  /// its value and leaves it. One probe either way.
  package mutating func insertIfAbsent(_ value: Int64, forKey key: StrokeFingerprint) -> Int64? {
    precondition(value >= 0, "a FingerprintTable holds numbers from 0")
    if (count + 1) * 2 > values.count { grow() }
    let (index, found) = slot(of: key)
    if found { return values[index] }
    keys[index] = key
    values[index] = value
    count += 1
    return nil
  }

  /// Empties the table. Past 4096 slots it lets its storage go rather than clear every slot:
  /// the indexer empties its table at each draft, and most drafts are small.
  package mutating func removeAll() {
    guard count > 0 else { return }
    if values.count > 4096 {
      keys = []
      values = []
    } else {
      values.withUnsafeMutableBufferPointer { $0.update(repeating: Self.empty) }
    }
    count = 0
  }

  private mutating func grow() {
    let (oldKeys, oldValues) = (keys, values)
    let capacity = max(64, values.count * 2)
    keys = Array(repeating: StrokeFingerprint(high: 0, low: 0), count: capacity)
    values = Array(repeating: Self.empty, count: capacity)
    for index in oldValues.indices where oldValues[index] != Self.empty {
      let slot = slot(of: oldKeys[index]).index
      keys[slot] = oldKeys[index]
      values[slot] = oldValues[index]
    }
  }
}
