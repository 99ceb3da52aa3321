// Values crossing the Swift/SQLite boundary: one enum over SQLite's five storage classes
// (SQLite's "Datatypes In SQLite") and a protocol for the Swift types that map onto
// them. Never `Any`.

/// A value as SQLite stores it.
package enum DatabaseValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// A Swift type that can be bound to a statement and read back from a row.
package protocol DatabaseValueConvertible {
  /// The value to bind.
  var databaseValue: DatabaseValue { get }
  /// The Swift value for a stored value, or nil when it does not convert (wrong storage
  /// class, out of range, NULL for a non-optional type).
  static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

// MARK: - Conformances

extension DatabaseValue: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(self) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
    switch value {
    case .integer(let v): return v
    case .real(let v): return Int64(exactly: v)
    default: return nil
    }
  }
}

extension Int: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(Int64(self)) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
    Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
  }
}

extension Int32: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(Int64(self)) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
    Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
  }
}

extension Double: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .real(self) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
    switch value {
    case .real(let v): return v
    case .integer(let v): return Double(v)
    default: return nil
    }
  }
}

extension Bool: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
    Int64.fromDatabaseValue(value).map { $0 != 0 }
  }
}

extension String: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { .text(self) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
    if case .text(let v) = value { return v }
    return nil
  }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
  package var databaseValue: DatabaseValue { .blob(self) }
  package static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
    switch value {
    case .blob(let v): return v
    case .text(let v): return Array(v.utf8)
    default: return nil
    }
  }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
  /// `.some(nil)` for NULL, `nil` when a non-NULL value does not convert.
  package static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
    if case .null = value { return .some(nil) }
    return Wrapped.fromDatabaseValue(value).map { .some($0) }
  }
}
