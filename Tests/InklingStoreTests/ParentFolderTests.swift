import Testing

@testable import InklingStore

/// The folder an archive's file is created in (ArchiveDatabase.parentFolder).
@Suite struct ParentFolderTests {
  @Test func isThePathBeforeTheLastComponent() {
    let cases = [
      ("a/b/c", "a/b"), ("/a/b/c.sqlite", "/a/b"), ("/c", "/"), ("c", ""), ("a/b/", "a"), ("/", "/"), ("", ""),
      ("a//b", "a"), ("./x", "."), ("../x/y", "../x"),
    ]
    for (path, folder) in cases {
      #expect(ArchiveDatabase.parentFolder(of: path) == folder, "\(path)")
    }
  }
}
