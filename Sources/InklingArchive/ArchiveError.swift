// Errors of the operations layer: values with a sentence a person can act on, and the
// exit status the command line gives for them (see ../shared/docs/product.md).

import InklingStore

/// Why an operation could not be done.
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
  public enum Kind: Sendable {
    /// The archive cannot be used: not ours, newer schema, corrupt, locked too long. Exit 3.
    case unusableArchive
    /// What the user asked for does not exist or does not fit (no such draft, a file in
    /// the way). Exit 1.
    case failed
    /// The request itself is malformed (a date that is not a date). Exit 2.
    case invalidRequest
  }

  public let kind: Kind
  public let message: String
  public var description: String { message }

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The process exit status for this error.
  public var exitStatus: Int32 {
    switch kind {
    case .unusableArchive: 3
    case .failed: 1
    case .invalidRequest: 2
    }
  }

  /// Wraps a store error: an archive that cannot be opened or read is unusable.
  init(_ error: StoreError) {
    self.init(.unusableArchive, error.description)
  }

  static func noDraft(_ name: String) -> ArchiveError {
    ArchiveError(.failed, "no draft named \"\(name)\" in the archive; `inkling-archive list` shows the names")
  }
}

/// Runs a body that talks to the store, turning store errors into archive errors.
func storeCall<T>(_ body: () throws -> T) throws(ArchiveError) -> T {
  do {
    return try body()
  } catch let error as ArchiveError {
    throw error
  } catch let error as StoreError {
    throw ArchiveError(error)
  } catch {
    throw ArchiveError(.failed, "\(error)")
  }
}
