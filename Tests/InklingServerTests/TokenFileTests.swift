// The token `serve` keeps: made once, then read again; private to the user; a file that
// another account could have read, or that is not a token, is replaced, never trusted.

import Foundation
import InklingServer
import InklingTestSupport
import Testing

@Suite struct TokenFileTests {
  static func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  @Test func aTokenIsMadeOnceAndKeptPrivate() throws {
    let folder = try TemporaryFolder("token-file")
    let path = folder.path("state/inkling-archive/serve-token")
    let token = try TokenFile.token(at: path)
    #expect(ServerConfiguration.isValidToken(token) && token.count == 32)
    #expect(try TokenFile.token(at: path) == token)
    #expect(try [Self.mode(folder.path("state")), Self.mode(folder.path("state/inkling-archive"))] == [0o700, 0o700])
    #expect(try Self.mode(path) == 0o600)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("state/inkling-archive")) == ["serve-token"])
    #expect(
      TokenFile.path(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"])
        == "/x/state/inkling-archive/serve-token")
    #expect(
      TokenFile.path(environment: ["XDG_STATE_HOME": "rel", "HOME": "/home/a"])
        == "/home/a/.local/state/inkling-archive/serve-token")
  }

  @Test func aFileOthersCouldReadOrThatIsNoTokenIsReplaced() throws {
    let folder = try TemporaryFolder("token-file")
    let path = folder.path("inkling-archive/serve-token")
    let kept = try TokenFile.token(at: path)
    // Opened to others (the folder too): the token may be known, so a new one; the folder is
    // made private again.
    chmod(folder.path("inkling-archive"), 0o755)
    chmod(path, 0o644)
    let replaced = try TokenFile.token(at: path)
    #expect(replaced != kept)
    #expect(try [Self.mode(folder.path("inkling-archive")), Self.mode(path)] == [0o700, 0o600])
    for content in ["", "short\n", "has space in it\n", String(repeating: "a", count: 300)] {
      try Data(content.utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o600)
      let token = try TokenFile.token(at: path)
      #expect(token.count == 32 && token != replaced, "\(content)")
    }
    // A link in its place is not followed.
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.path("elsewhere"))
    _ = try TokenFile.token(at: path)
    #expect(!FileManager.default.fileExists(atPath: folder.path("elsewhere")))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
  }
}
