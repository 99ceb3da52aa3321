// Beyond loopback the API shows where a version came from as its source's label and file name,
// not the machine's folders: a label that is a path, as an import's default is, only by its
// last folder's name; on loopback the full paths, as the CLI.

import Foundation
import Testing

@testable import InklingServer

@Suite struct SourcePathTests {
  static func sources(_ served: ServedArchive, token: String?) throws -> [[String: Any]] {
    let name = try served.archive().drafts()[0].name
    let response = try served.get(
      "/api/draft?name=\(encoded(name))", headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    #expect(response.status == 200)
    let versions = try #require((try response.json() as? [String: Any])?["versions"] as? [[String: Any]])
    return versions.flatMap { ($0["sources"] as? [[String: Any]]) ?? [] }
  }

  @Test func anotherHostShowsOnlyFileNames() throws {
    let served = try ServedArchive(host: "0.0.0.0", importNow: true)
    let token: String = try #require(served.server.token)
    let sources = try Self.sources(served, token: token)
    #expect(!sources.isEmpty)
    for source in sources {
      let path = try #require(source["path"] as? String)
      #expect(!path.contains("/") && !path.contains(served.folder) && path.hasSuffix(".inkling"), "\(path)")
      // The default label is the folder imported, a path: only its name is shown.
      #expect(source["label"] as? String == "Drafts", "\(source)")
    }
  }

  @Test func loopbackShowsFullPaths() throws {
    let served = try SharedArchive.get()
    let sources = try Self.sources(served, token: nil)
    #expect(!sources.isEmpty)
    #expect(sources.allSatisfy { ($0["path"] as? String)?.hasPrefix(served.draftsFolder) == true })
    #expect(sources.allSatisfy { ($0["label"] as? String) == served.draftsFolder })
  }
}
