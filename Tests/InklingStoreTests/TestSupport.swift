import Foundation

@testable import InklingStore

/// The error `body` throws, or nil.
func thrownError(_ body: () throws -> Void) -> (any Error)? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

/// The StoreError `body` throws, or nil.
func storeError(_ body: () throws -> Void) -> StoreError? {
  thrownError(body) as? StoreError
}

/// Inserts a one-byte blob and an envelope `{}` for versions to refer to, by hand (no
/// BlobStore, no template): their ids.
func insertBlobAndEnvelope(in db: Database) throws -> (blobID: Int64, envelopeID: Int64) {
  try db.execute(
    "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')",
    [[UInt8](repeating: 1, count: 32)])
  let blobID = db.lastInsertRowID
  try db.execute(
    "INSERT INTO envelope(sha256, text, drawing_offset, base64_style) VALUES (?, x'7b7d', 1, 0)",
    [[UInt8](repeating: 2, count: 32)])
  return (blobID, db.lastInsertRowID)
}
