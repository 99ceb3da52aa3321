// JSONValue: a JSON document with ordered object keys, for stable `--json` output.
//
// Objects keep keys in the order written, so output is byte-for-byte stable and diffable;
// there is no `Any` and no dictionary reordering. It sits in the lowest module so that every
// layer writes JSON through the same writer: the export manifest as much as `--json` and the
// web pages' API. Literals make building values short:
//
//     let value: JSONValue = [
//       "name": .string(draft.name),
//       "versions": .int(draft.versionCount),
//       "saved": .date(draft.savedAt),
//       "tags": ["a", "b"],
//     ]

import FoundationEssentials

package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// Printed as an integer: `42`.
  case int(Int)
  /// Printed so it reads back to the same Double (`0.1`, `1e-05`); NaN and infinities as null.
  case double(Double)
  case string(String)
  /// Printed as an ISO 8601 UTC string: `"2025-10-05T14:03:22Z"`.
  case date(Date)
  case array([JSONValue])
  case object([Member])

  /// One key and value of an object.
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: JSONValue
    package init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// A string from bytes that may not be UTF-8 (a file name from disk): invalid sequences
  /// become U+FFFD, so the output is always valid UTF-8 JSON.
  package static func string(lossyUTF8 bytes: some Collection<UInt8>) -> JSONValue {
    .string(String(decoding: bytes, as: UTF8.self))
  }

  /// An optional value: nil becomes `null`.
  package static func optional(_ value: JSONValue?) -> JSONValue {
    value ?? .null
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .int(value) }
  package init(floatLiteral value: Double) { self = .double(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Keys keep the order written.
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
  package init(nilLiteral: ()) { self = .null }
}
