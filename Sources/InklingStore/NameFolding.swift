// The one definition of "the same name, for searching": names and search terms are folded
// the same way, in Swift (here) and in SQL (`inkling_fold`, the same function registered on
// every connection so that migration 0003's triggers keep draft.name_folded and name_gram,
// and migration 0013's generated column source.label_folded).
//
// fold(s) = NFC(stripDiacritics(caseFold(stripDiacritics(NFKD(s))))), through utf8proc, whose
// tables are Unicode's own (Foundation proper and its ICU would cost every process start):
//   - NFKD first, so that NFC and NFD spellings of a name fold alike, and compatibility forms
//     (ﬁ, ＡＢＣ, ², Ⅻ, ①, ｶﾞ) become their plain letters;
//   - the combining marks of the blocks of diacritics removed: Combining Diacritical Marks
//     (U+0300–036F) and its Extended (U+1AB0–1AFF) and Supplement (U+1DC0–1DFF) blocks,
//     Combining Diacritical Marks for Symbols (U+20D0–20FF) and Combining Half Marks
//     (U+FE20–FE2F). Those are the accents of Latin, Greek and Cyrillic (Café → cafe,
//     Tiếng Việt → tieng viet, Ёлка → елка). Marks of other blocks are no accents but part of
//     how a script is spelled (kana voicing marks, Devanagari vowel signs, Hebrew points,
//     Arabic harakat), and stay;
//   - the Latin letters with a stroke or a bar and the ligatures, which have no decomposition
//     but which Unicode's collation orders as their base letters with a secondary difference
//     (DUCET, allkeys.txt: ł is l, ø is o, đ is d, ħ is h; æ is a e, œ is o e), written as
//     those letters, so that `Lodz` finds Łódź as an accent-insensitive search of the
//     collation's primary strength does; letters that the collation orders apart (þ, ı, ŋ) stay;
//   - Unicode full case folding (CaseFolding.txt, statuses C and F; Straße → strasse, ẞ → ss,
//     Άσ → ασ), decomposed and stripped again. It comes after the first stripping because it
//     turns one diacritic into a letter (the iota subscript, U+0345, folds to ι), and ᾳ is an
//     α with an accent, not αι. It is Unicode's caseless matching, not a lowercasing: Cherokee,
//     whose uppercase letters were encoded first, folds to them (ꭰ → Ꭰ);
//   - NFC last, so that what remains (Hangul, kana with voicing marks) is compact and both
//     sides compare code point by code point (SQLite's substr/length/instr count code points).
//
// Invariant: fold is deterministic and depends on nothing but its argument (the SQL function
// is declared SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS).
// The archive stores folds (name_folded, name_gram, label_folded): a change to what fold
// returns for any text, by this file or by a utf8proc of a later Unicode version, needs a
// migration that refolds them, as 0014 and 0016 do.

import CSQLite
import CUtf8proc

/// Folding draft names for case- and accent-insensitive comparison.
package enum NameFolding {
  /// `name` folded: `fold("Café") == fold("CAFE\u{301}") == "cafe"`.
  package static func fold(_ name: String) -> String {
    // Most names are ASCII; lowercasing them is the whole fold, with no table to look up.
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    var name = name
    var letters = name.withUTF8 { decomposed($0, UTF8PROC_COMPAT.rawValue) }
    var folded = encoded(&letters, composing: false).withUnsafeBufferPointer {
      decomposed($0, UTF8PROC_COMPAT.rawValue | UTF8PROC_CASEFOLD.rawValue)
    }
    return String(decoding: encoded(&folded, composing: true), as: UTF8.self)
  }

  /// The code points of `utf8` decomposed by utf8proc (DECOMPOSE and `options`; in canonical
  /// order), the diacritics removed.
  private static func decomposed(_ utf8: UnsafeBufferPointer<UInt8>, _ options: UInt32) -> [utf8proc_int32_t] {
    let options = utf8proc_option_t(rawValue: UTF8PROC_STABLE.rawValue | UTF8PROC_DECOMPOSE.rawValue | options)
    // A code point takes at least one byte, so as many code points as bytes are enough unless
    // a decomposition expands (ﷺ is 18 letters); utf8proc then says how many it needs.
    var points = [utf8proc_int32_t](repeating: 0, count: utf8.count)
    while true {
      let count = points.withUnsafeMutableBufferPointer {
        utf8proc_decompose(
          utf8.baseAddress, utf8proc_ssize_t(utf8.count), $0.baseAddress, utf8proc_ssize_t($0.count), options)
      }
      // utf8proc fails only on invalid UTF-8, which neither a String nor its own output holds,
      // or on a length beyond any allocation.
      guard count >= 0 else { preconditionFailure("utf8proc_decompose failed: \(count)") }
      if count <= points.count {
        points.removeSubrange(Int(count)...)
        break
      }
      points = Array(repeating: 0, count: Int(count))
    }
    // Removing marks keeps the sequence decomposed and in canonical order, and so does writing
    // a base letter (of combining class 0) for a letter with a stroke.
    points.removeAll(where: isDiacritic)
    if points.contains(where: { baseLetters[$0] != nil }) {
      points = points.flatMap { baseLetters[$0] ?? [$0] }
    }
    return points
  }

  /// The letters of the file comment's fourth step and the base letters they are ordered as.
  private static let baseLetters: [utf8proc_int32_t: [utf8proc_int32_t]] = {
    let pairs: [(Character, String)] = [
      ("Ł", "L"), ("ł", "l"), ("Ø", "O"), ("ø", "o"), ("Đ", "D"), ("đ", "d"), ("Ħ", "H"), ("ħ", "h"),
      ("Ŧ", "T"), ("ŧ", "t"), ("Ƀ", "B"), ("ƀ", "b"), ("Ɨ", "I"), ("ɨ", "i"), ("Ƶ", "Z"), ("ƶ", "z"),
      ("Ǥ", "G"), ("ǥ", "g"), ("Ɉ", "J"), ("ɉ", "j"), ("Ꝁ", "K"), ("ꝁ", "k"), ("Ɍ", "R"), ("ɍ", "r"),
      ("Ꞩ", "S"), ("ꞩ", "s"), ("Æ", "AE"), ("æ", "ae"), ("Œ", "OE"), ("œ", "oe"),
    ]
    var table: [utf8proc_int32_t: [utf8proc_int32_t]] = [:]
    for (letter, base) in pairs {
      table[utf8proc_int32_t(letter.unicodeScalars.first!.value)] = base.unicodeScalars.map {
        utf8proc_int32_t($0.value)
      }
    }
    return table
  }()

  /// `points` as UTF-8, in NFC when `composing` (the composition of a decomposition in
  /// canonical order), made in their own storage.
  private static func encoded(_ points: inout [utf8proc_int32_t], composing: Bool) -> [UInt8] {
    let count = points.count
    // utf8proc_reencode writes a NUL after the bytes, which may take all of the code points' room.
    points.append(0)
    let options = utf8proc_option_t(rawValue: UTF8PROC_STABLE.rawValue | (composing ? UTF8PROC_COMPOSE.rawValue : 0))
    return points.withUnsafeMutableBufferPointer { buffer in
      let bytes = utf8proc_reencode(buffer.baseAddress, utf8proc_ssize_t(count), options)
      guard bytes >= 0 else { preconditionFailure("utf8proc_reencode failed: \(bytes)") }
      return Array(UnsafeRawBufferPointer(buffer).prefix(Int(bytes)))
    }
  }

  /// Whether `point` is a combining mark of one of the blocks of diacritics (file comment).
  private static func isDiacritic(_ point: utf8proc_int32_t) -> Bool {
    switch point {
    case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
    default: false
    }
  }
}

extension Database {
  /// Registers the functions the schema's triggers and views call, on this connection:
  /// `inkling_fold` (below, migration 0003) and `inkling_ink_bit` (InkBits.swift, migration 0011).
  ///
  /// - Throws: `StoreError` if SQLite refuses a function.
  package func registerArchiveFunctions() throws {
    try registerFoldFunction()
    try registerInkBitFunction()
  }

  /// Registers `inkling_fold(text)`, NameFolding.fold for SQL; migration 0003's triggers use it.
  private func registerFoldFunction() throws {
    let connection = try live()
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
    let code = sqlite3_create_function_v2(connection.handle, "inkling_fold", 1, flags, nil, foldFunction, nil, nil, nil)
    guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
  }
}

/// The C entry point of `inkling_fold`: NULL stays NULL, anything else is read as text.
private func foldFunction(
  _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL else {
    sqlite3_result_null(context)
    return
  }
  let text: String
  if let bytes = sqlite3_value_text(argument) {
    let length = Int(sqlite3_value_bytes(argument))
    text = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
  } else {
    text = ""
  }
  var folded = NameFolding.fold(text)
  guard !folded.isEmpty else {
    // A nil pointer would be NULL, not "" (sqlite3_result_blob).
    sqlite3_result_text64(context, "", 0, nil, UInt8(SQLITE_UTF8))
    return
  }
  folded.withUTF8 { utf8 in
    utf8.withMemoryRebound(to: CChar.self) {
      sqlite3_result_text64(
        context, $0.baseAddress, sqlite3_uint64($0.count), inkling_sqlite_transient(), UInt8(SQLITE_UTF8))
    }
  }
}
