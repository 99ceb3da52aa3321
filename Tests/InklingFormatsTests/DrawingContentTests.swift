// Content equality and the content fingerprint.

import InklingCorpus
import Testing

@testable import InklingFormats

@Suite struct DrawingContentTests {
  @Test func xxhash64ReferenceVectors() {
    #expect(XXHash64.hash([]) == 0xEF46_DB37_51D8_E999)
    #expect(XXHash64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
    // Longer than 32 bytes: the four-lane path (reference value from xxhsum).
    #expect(
      XXHash64.hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
  }

  /// The streaming form gives XXH64 of the words' bytes, whatever mix of single words and
  /// stripes fed it, on both paths (under and over 32 bytes) and every tail length.
  @Test func xxhash64OfWordsMatchesTheByteHash() {
    var random = SeededRandom(seed: 0x1234_5678_9ABC_DEF0)
    for count in 0...23 {
      let words = (0..<count).map { _ in random.next() }
      let bytes = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
      for seed: UInt64 in [0, 0x9E37_79B9_7F4A_7C15] {
        var oneByOne = XXHash64Words(seed: seed)
        words.forEach { oneByOne.append($0) }
        #expect(oneByOne.finish() == XXHash64.hash(bytes, seed: seed), "\(count) words")
        var striped = XXHash64Words(seed: seed)
        var index = 0
        while index < count {
          if striped.isAligned && index + 4 <= count {
            striped.stripe(words[index], words[index + 1], words[index + 2], words[index + 3])
            index += 4
          } else {
            striped.append(words[index])
            index += 1
          }
        }
        #expect(striped.finish() == XXHash64.hash(bytes, seed: seed), "\(count) words in stripes")
      }
    }
  }

  /// A stroke's digest is XXH64 of its canonical words, which are never built for it.
  @Test func strokeDigestsHashTheCanonicalWords() throws {
    let drawing = try DrawingSamples.drawing("pen-marker-hidden")
    for index in drawing.strokes.indices {
      let words = drawing.strokeCanonicalWords(at: index)
      #expect(words.withUnsafeBytes { XXHash64.hash($0) } == drawing.strokeContentDigest(at: index))
    }
  }

  /// An ink's identifier enters the form as its UTF-8 length, then its bytes packed
  /// little-endian eight to a word, the last word zero-padded: at every length, and for
  /// identifiers that are not ASCII.
  @Test func identifiersArePackedLittleEndianEightBytesAWord() throws {
    var drawing = try DrawingSamples.drawing("three-pen-strokes")
    for identifier in ["", "abc", "12345678", "com.apple.ink.pen", "com.example.encre-brûlée", "🖋️ink"] {
      drawing.inks[drawing.strokes[0].inkIndex].inkType = .other(identifier)
      let utf8 = Array(identifier.utf8)
      var expected = [UInt64(utf8.count)]
      for start in stride(from: 0, to: utf8.count, by: 8) {
        expected.append(
          utf8[start..<min(start + 8, utf8.count)].enumerated().reduce(0) {
            $0 | UInt64($1.element) << (8 * UInt64($1.offset))
          })
      }
      let words = drawing.strokeCanonicalWords(at: 0)
      // The form starts with the "has an ink" flag, then the identifier.
      #expect(Array(words[1...expected.count]) == expected, "\(identifier)")
    }
  }

  @Test func theSameDrawingWithOtherIDsHasTheSameContent() throws {
    let original = try DrawingSamples.drawing("three-pen-strokes")
    var copy = original
    copy.uuid = .test(0x42)
    copy.replicas = [.zero, .test(0x43)]
    copy.versionVector = [StrokeID(clock: 99, replicaIndex: 1, subclock: 7)]
    for index in copy.strokes.indices {
      copy.strokes[index].uuid = .test(0x50, UInt8(index))
      copy.strokes[index].versionID = StrokeID(clock: 5, replicaIndex: 1, subclock: 0)
      copy.strokes[index].sortID = StrokeID(clock: UInt64(index), replicaIndex: 1, subclock: 9)
      copy.strokes[index].randomSeed = 12345
      copy.strokes[index].path?.uuid = .test(0x60, UInt8(index))
      copy.strokes[index].path?.creationDate += 1000
      copy.strokes[index].storedBounds = nil
    }
    let bytesA = try DrawingWriter.write(original)
    let bytesB = try DrawingWriter.write(copy)
    #expect(bytesA != bytesB)
    let a = try Drawing(bytes: bytesA)
    let b = try Drawing(bytes: bytesB)
    #expect(a.hasSameContent(as: b))
    #expect(a.contentFingerprint == b.contentFingerprint)
  }

  @Test func aHiddenStrokeDoesNotChangeContent() throws {
    let original = try DrawingSamples.drawing("three-pen-strokes")
    var more = original
    var hidden = original.strokes[1]
    hidden.isHidden = true
    hidden.path?.points[0].location.x += 50
    more.strokes.insert(hidden, at: 1)
    #expect(more.hasSameContent(as: original))
    #expect(more.contentFingerprint == original.contentFingerprint)
    more.strokes[1].isHidden = false
    #expect(!more.hasSameContent(as: original))
  }

  @Test func aChangedPointChangesContent() throws {
    let original = try DrawingSamples.drawing("pen-marker-hidden")
    var changed = original
    changed.strokes[2].path?.points[17].location.y += 0.25
    #expect(!changed.hasSameContent(as: original))
    #expect(changed.contentFingerprint != original.contentFingerprint)
    var timing = original
    timing.strokes[2].path?.points[17].timeOffset += 1  // timing is not looks
    #expect(timing.hasSameContent(as: original))
  }

  @Test func inksCompareByValueNotIndex() throws {
    let original = try DrawingSamples.drawing("three-pen-strokes")
    var reordered = original
    reordered.inks.reverse()
    for index in reordered.strokes.indices {
      reordered.strokes[index].inkIndex = 2 - original.strokes[index].inkIndex
    }
    #expect(reordered.hasSameContent(as: original))
    var recoloured = original
    recoloured.inks[1].color.green = 0
    #expect(!recoloured.hasSameContent(as: original))
    var variant = original
    variant.inks[0].variant = "linear"
    #expect(!variant.hasSameContent(as: original))
  }

  @Test func transformAndSubstrokeStructureCount() throws {
    let original = try DrawingSamples.drawing("three-pen-strokes")
    var moved = original
    moved.strokes[0].transform.tx = 3
    #expect(!moved.hasSameContent(as: original))
    var split = original
    let piece = Stroke(inkIndex: 0, path: nil, slices: [0, 2.5])
    split.strokes[0].substrokes = [piece]
    #expect(!split.hasSameContent(as: original))
    var twoPieces = split
    twoPieces.strokes[0].substrokes.append(Stroke(inkIndex: 0, path: nil, slices: [3, 4]))
    #expect(!twoPieces.hasSameContent(as: split))
    var hiddenPiece = split
    hiddenPiece.strokes[0].substrokes.append(
      Stroke(inkIndex: 0, path: nil, isHidden: true, slices: [3, 4]))
    #expect(hiddenPiece.hasSameContent(as: split))
  }

  @Test func nanAndNegativeZeroAreCanonical() throws {
    var a = try DrawingSamples.drawing("pen-marker-hidden")
    a.strokes[2].path?.points[0].location.x = .nan
    #expect(a.hasSameContent(as: a))
    var b = a
    b.strokes[2].path?.points[0].location.x = Double(Float(bitPattern: 0x7FC0_0001))
    #expect(a.hasSameContent(as: b))
    var zero = a
    var negativeZero = a
    zero.strokes[2].path?.points[1].location.x = 0
    negativeZero.strokes[2].path?.points[1].location.x = -0.0
    #expect(zero.contentFingerprint == negativeZero.contentFingerprint)
  }

  /// Fingerprints are stored in archives: they must never change by accident (Swift's `Hasher`
  /// would give a different value in every process).
  @Test func fingerprintsAreStableAcrossProcesses() throws {
    let empty = try DrawingSamples.drawing("empty").contentFingerprint.description
    let threePens = try DrawingSamples.drawing("three-pen-strokes").contentFingerprint.description
    // The composed form ("inkling4": one 64-bit digest per visible stroke), pinned here.
    #expect(empty == "a110106526856ea7712bf4475e60941c")
    #expect(threePens == "d8197af090f5722cf6694e206ea5ad2a")
  }

  @Test func fingerprintBytesRoundTrip() throws {
    let fingerprint = try DrawingSamples.drawing("handwritten-half-notes").contentFingerprint
    #expect(fingerprint.bytes.count == 16)
    #expect(DrawingFingerprint(bytes: fingerprint.bytes) == fingerprint)
    #expect(DrawingFingerprint(bytes: [1, 2]) == nil)
    #expect(fingerprint.description.count == 32)
  }
}
