// Reading the first bytes of a database file through SQLite's own descriptor.
//
// Why never through a descriptor of our own: POSIX advisory locks belong to a process, not
// to a descriptor, and closing *any* descriptor of a file drops every lock the process holds
// on it. Were the header read through a FileHandle while a connection of the same process
// has the archive open (the importer's writer, while its worker threads open their readers),
// closing that handle would silently drop the writer's shared lock. Another process closing
// its last connection would then see no other user, checkpoint and delete the WAL, and the
// writer would go on committing into the deleted file: whole batches lost
// (SQLite's "How To Corrupt An SQLite Database File", on POSIX locks and close();
// ConcurrencyTests.twoImportsAndAReaderOnOneArchive reproduces it).

import CSQLite

extension Database {
  /// Up to `count` bytes from the start of the main database file (fewer when the file is
  /// shorter), read with SQLite's descriptor (SQLITE_FCNTL_FILE_POINTER), or nil when SQLite
  /// has no file open.
  func readHeader(count: Int) -> [UInt8]? {
    guard let handle = try? handle else { return nil }
    var pointer: UnsafeMutablePointer<sqlite3_file>?
    guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
      let file = pointer, let methods = file.pointee.pMethods,
      let fileSize = methods.pointee.xFileSize, let read = methods.pointee.xRead
    else { return nil }
    var size: sqlite3_int64 = 0
    guard fileSize(file, &size) == SQLITE_OK else { return nil }
    let length = Int(min(size, sqlite3_int64(count)))
    guard length > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: length)
    let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(length), 0) }
    return code == SQLITE_OK ? bytes : nil
  }
}
