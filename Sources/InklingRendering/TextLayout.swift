// Text to positioned glyphs: itemisation into runs, shaping, measurement and the ellipsis.
//
// A line is split into runs of one font, one script and one direction, each shaped by
// HarfBuzz with the whole line as context (so an Arabic word joins across a run boundary),
// then the runs are put in visual order.
//
// - Font: per character (grapheme cluster), the first face that has every scalar of it
//   (zero-width joiners and variation selectors need not be in it). A character shown as
//   emoji tries the colour face first; a space or punctuation mark stays in the face of the
//   character before it when that face has it, so runs are not cut at every space (not in
//   the colour face, whose spaces are as wide as its emoji). A
//   character no face has goes to fontconfig's choice, else to the first face (its
//   missing-glyph box).
// - Script: HarfBuzz's script of the character's first scalar with one; common characters
//   (spaces, digits, punctuation, emoji) take the script of the character before them.
// - Direction: a simplified Unicode bidi algorithm, enough for names: the paragraph is
//   right-to-left when its first strong character is (rule P2); characters of right-to-left
//   scripts are level 1, other scripts and digits left-to-right (level 0, or 2 in a
//   right-to-left paragraph); neutrals between two characters of one direction take it, else
//   the paragraph's (N1, N2); runs are reordered by rule L2.

import CHarfBuzz

/// A glyph placed on a line: from face `face` of the renderer that laid the line out, its
/// origin `x` pixels right of the line's start and `y` pixels above the baseline.
struct PlacedGlyph: Hashable {
  var face: Int
  var glyph: UInt32
  var x: Double
  var y: Double
  /// HarfBuzz's cluster: the index, among the line's scalars, of the first scalar the glyph
  /// was made from (what a PDF maps the glyph back to, so its text can be found and copied).
  var cluster: Int
}

/// A shaped run in visual order: its glyphs and the scalars they came from, in one direction.
struct ShapedRun: Hashable {
  var glyphs: Range<Int>
  var scalars: Range<Int>
  var isRightToLeft: Bool
}

/// A run of characters that is shaped in one call.
struct TextRun {
  var start: Int
  var end: Int
  var face: Int
  var script: hb_script_t
  var level: Int
}

extension TextRenderer {
  /// The glyphs of `characters` (a whole line) in visual order, its advance width, and
  /// whether it reads right to left.
  func shape(_ characters: [Character], pixelSize: Double) -> (
    glyphs: [PlacedGlyph], runs: [ShapedRun], width: Double, rtl: Bool
  ) {
    var scalars: [UInt32] = []
    var characterStart: [Int] = []
    for character in characters {
      characterStart.append(scalars.count)
      scalars += character.unicodeScalars.map(\.value)
    }
    characterStart.append(scalars.count)
    let (runs, rtl) = itemize(characters)
    var glyphs: [PlacedGlyph] = []
    var shapedRuns: [ShapedRun] = []
    var pen = 0.0
    let buffer = hb_buffer_create()
    defer { hb_buffer_destroy(buffer) }
    for run in Self.visualOrder(runs) {
      let face = faces[run.face]
      face.setShapingSize(pixelSize)
      hb_buffer_clear_contents(buffer)
      let offset = characterStart[run.start]
      hb_buffer_add_utf32(
        buffer, scalars, Int32(scalars.count), UInt32(offset), Int32(characterStart[run.end] - offset))
      hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
      hb_buffer_set_script(buffer, run.script)
      hb_shape(face.hbFont, buffer, nil, 0)
      var count: UInt32 = 0
      guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
      else { continue }
      let first = glyphs.count
      for i in 0..<Int(count) {
        let p = positions[i]
        glyphs.append(
          PlacedGlyph(
            face: run.face, glyph: infos[i].codepoint, x: pen + Double(p.x_offset) / 64, y: Double(p.y_offset) / 64,
            cluster: Int(infos[i].cluster)))
        pen += Double(p.x_advance) / 64
      }
      shapedRuns.append(
        ShapedRun(
          glyphs: first..<glyphs.count, scalars: characterStart[run.start]..<characterStart[run.end],
          isRightToLeft: run.level % 2 == 1))
    }
    return (glyphs, shapedRuns, pen, rtl)
  }

  // MARK: - Itemisation

  /// The runs of `characters` in logical order, and whether the paragraph is right-to-left.
  func itemize(_ characters: [Character]) -> (runs: [TextRun], rtl: Bool) {
    let unicode = hb_unicode_funcs_get_default()
    // Scripts, with common and inherited characters taking the script before (or after) them.
    var scripts: [hb_script_t] = characters.map { character in
      for scalar in character.unicodeScalars {
        let script = hb_unicode_script(unicode, scalar.value)
        if script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN {
          return script
        }
      }
      return HB_SCRIPT_COMMON
    }
    if let first = scripts.firstIndex(where: { $0 != HB_SCRIPT_COMMON }) {
      for i in 0..<first { scripts[i] = scripts[first] }
      for i in first..<scripts.count where scripts[i] == HB_SCRIPT_COMMON { scripts[i] = scripts[i - 1] }
    }
    // Directions: true = right-to-left, false = left-to-right, nil = neutral.
    let strong: [Bool?] = characters.map { character in
      guard let scalar = character.unicodeScalars.first else { return nil }
      if scalar.properties.numericType != nil && scalar.isASCII { return false }
      let script = hb_unicode_script(unicode, scalar.value)
      if script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN { return nil }
      return hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL
    }
    let rtl = strong.first { $0 != nil }.flatMap { $0 } ?? false
    var levels = [Int](repeating: 0, count: characters.count)
    var i = 0
    while i < characters.count {
      if let direction = strong[i] {
        levels[i] = direction ? 1 : (rtl ? 2 : 0)
        i += 1
        continue
      }
      var j = i
      while j < characters.count, strong[j] == nil { j += 1 }
      let before = i > 0 ? strong[i - 1]! : rtl
      let after = j < characters.count ? strong[j]! : rtl
      let direction = before == after ? before : rtl
      for k in i..<j { levels[k] = direction ? 1 : (rtl ? 2 : 0) }
      i = j
    }
    // Faces, then runs of equal face, script and level.
    var chosen: [Int] = []
    for (index, character) in characters.enumerated() {
      let previous = chosen.last
      if let previous, strong[index] == nil, !Self.isEmoji(character), !faces[previous].isColorBitmap,
        covers(previous, character)
      {
        chosen.append(previous)
      } else {
        chosen.append(face(for: character))
      }
    }
    var runs: [TextRun] = []
    for index in characters.indices {
      if let last = runs.last, last.face == chosen[index], last.script == scripts[index], last.level == levels[index] {
        runs[runs.count - 1].end = index + 1
      } else {
        runs.append(
          TextRun(start: index, end: index + 1, face: chosen[index], script: scripts[index], level: levels[index]))
      }
    }
    return (runs, rtl)
  }

  /// Rule L2: from the highest level down to the lowest odd one, reverse every sequence of
  /// runs at that level or above.
  static func visualOrder(_ runs: [TextRun]) -> [TextRun] {
    guard let highest = runs.map(\.level).max(), highest > 0 else { return runs }
    let lowestOdd = runs.map(\.level).filter { $0 % 2 == 1 }.min() ?? highest
    var order = runs
    var level = highest
    while level >= lowestOdd && level > 0 {
      var i = 0
      while i < order.count {
        guard order[i].level >= level else {
          i += 1
          continue
        }
        var j = i
        while j < order.count, order[j].level >= level { j += 1 }
        order[i..<j].reverse()
        i = j
      }
      level -= 1
    }
    return order
  }

  // MARK: - Fallback

  /// Scalars a face need not have for a character to be drawn from it: they only select or
  /// join (ZWJ, ZWNJ, variation selectors) and shaping removes them.
  static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: true
    default: false
    }
  }

  /// Whether `character` is shown as emoji: it has a scalar with emoji presentation by
  /// default, or asks for it with U+FE0F.
  static func isEmoji(_ character: Character) -> Bool {
    character.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }
  }

  func covers(_ face: Int, _ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { Self.isIgnorable($0) || faces[face].has($0) }
  }
}
