// The one definition of "the same name, for searching": names and search terms are folded
// the same way, in Swift (here) and in SQL (`inkling_fold`, the same function registered on
// every connection so that migration 0003's triggers keep draft.name_folded and name_gram).
//
// fold(s) = NFC(caseFold(stripMarks(widthFold(NFKD(s))))):
//   - NFKD first, so that NFC and NFD spellings of a name fold alike, and compatibility forms
//     (ﬁ, ＡＢＣ, ²) become their plain letters;
//   - Foundation's case-, diacritic- and width-insensitive folding, for every script
//     (Café → cafe, Straße → strasse, Ёлка → елка, Άσ → ασ);
//   - NFC last, so that what remains (Hangul, kana with voicing marks) is compact and both
//     sides compare code point by code point (SQLite's substr/length/instr count code points).
//
// Invariant: fold is deterministic and depends on nothing but its argument (the SQL function
// is declared SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, https://www.sqlite.org/c3ref/c_deterministic.html).

import CSQLite
import Foundation

/// Folding draft names for case- and accent-insensitive comparison.
package enum NameFolding {
  /// `name` folded: `fold("Café") == fold("CAFE\u{301}") == "cafe"`.
  package static func fold(_ name: String) -> String {
    // Most names are ASCII; lowercasing them is the whole fold, and far cheaper than Foundation's.
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    return name.decomposedStringWithCompatibilityMapping
      .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
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
    // A nil pointer would be NULL, not "" (https://www.sqlite.org/c3ref/result_blob.html).
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
