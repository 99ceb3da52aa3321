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
