// The one definition of the ink bits in `draft.latest_inks` (migration 0008, invariant 2): a
// bit per ink that PencilKit names, and one bit for every other ink ("look in drawing_ink").
// The triggers read it through the SQL function `inkling_ink_bit` (migration 0011), which every
// archive connection registers; the search compiler binds the same bits, and `check` compares
// drafts with the view that calls the function, so no copy of the table exists anywhere else.
//
// Invariant: a bit, once given to an ink, is never given to another or taken back: archives
// store the OR of these bits. A new ink gets a new bit (and a migration that recomputes
// latest_inks for drafts that use it, which until then have the bit of "another ink").

import CSQLite
import InklingFormats

/// The bits of draft.latest_inks.
package enum InkBits {
  /// The bit of each ink with a bit of its own.
  package static let known: [(ink: Ink.InkType, bit: Int64)] = [
    (.pen, 1), (.pencil, 2), (.marker, 4), (.monoline, 8), (.fountainPen, 16), (.watercolor, 32), (.crayon, 64),
    (.eraser, 128),
  ]
  /// The bit of every ink without one of its own.
  package static let other: Int64 = 256

  /// The short names (`Ink.InkType.name`) of the inks with a bit of their own, in bit order.
  package static var names: [String] { known.map(\.ink.name) }

  /// The bit of the ink whose short name is `name` (`pen`, `fountainpen`, …): `other` for
  /// any name without one.
  package static func bit(ofInkNamed name: String) -> Int64 {
    var name = name
    return name.withUTF8 { bit(ofUTF8: UnsafeRawBufferPointer($0)) }
  }

  /// The names as UTF-8, for the SQL function, which compares bytes without making a string.
  private static let utf8Names: [(bytes: [UInt8], bit: Int64)] = known.map { (Array($0.ink.name.utf8), $0.bit) }

  static func bit(ofUTF8 name: UnsafeRawBufferPointer) -> Int64 {
    for entry in utf8Names where entry.bytes.count == name.count {
      if entry.bytes.withUnsafeBytes({ $0.elementsEqual(name) }) { return entry.bit }
    }
    return other
  }
}

extension Database {
  /// Registers `inkling_ink_bit(name)`, InkBits for SQL; migration 0011's triggers and view
  /// call it.
  ///
  /// - Throws: `StoreError` if SQLite refuses the function.
  func registerInkBitFunction() throws {
    let connection = try live()
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
    let code = sqlite3_create_function_v2(
      connection.handle, "inkling_ink_bit", 1, flags, nil, inkBitFunction, nil, nil, nil)
    guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
  }
}

/// The C entry point of `inkling_ink_bit`: NULL stays NULL, anything else is read as text.
private func inkBitFunction(
  _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL else {
    sqlite3_result_null(context)
    return
  }
  // Text first, then its length (sqlite3_value_bytes).
  let text = sqlite3_value_text(argument)
  let length = Int(sqlite3_value_bytes(argument))
  let name = UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : length)
  sqlite3_result_int64(context, InkBits.bit(ofUTF8: name))
}
