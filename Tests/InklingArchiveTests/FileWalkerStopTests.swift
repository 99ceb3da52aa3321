import InklingTestSupport
import Testing

@testable import InklingArchive

/// A walk that is told to stop ends where it is, without going through the rest of a folder.
@Suite struct FileWalkerStopTests {
  /// Counts the walk's questions; says stop from the `after`-th on.
  final class StopAfter {
    let after: Int
    var asked = 0
    init(_ after: Int) { self.after = after }
    func isStopped() -> Bool {
      asked += 1
      return asked > after
    }
  }

  func folder() throws -> TemporaryFolder {
    let folder = try TemporaryFolder("walk-stop")
    for i in 0..<200 { try folder.write("Drafts/Draft \(i)-2025-10-01T10:00:00Z.inkling", Array("{}".utf8)) }
    for i in 0..<5 { try folder.write("Drafts/sub\(i)/Other-2025-10-01T10:00:00Z.inkling", Array("{}".utf8)) }
    return folder
  }

  func entries(_ walker: FileWalker, _ path: String) -> Int {
    var count = 0
    walker.walk([path]) { event in
      if case .drafts(let found) = event { count += found.count }
    }
    return count
  }

  @Test func anUnstoppedWalkFindsEveryFile() throws {
    let folder = try folder()
    #expect(entries(FileWalker(maximumFileSize: 1 << 20), folder.path("Drafts")) == 205)
  }

  @Test func aStoppedWalkEndsInTheMiddleOfAFolder() throws {
    let folder = try folder()
    let stop = StopAfter(50)
    let found = entries(FileWalker(maximumFileSize: 1 << 20, isStopped: stop.isStopped), folder.path("Drafts"))
    // The folder's drafts are handed over once it is read whole, so none come; and the walk
    // asked no more after the first yes, not once for each of the folder's 205 entries.
    #expect(found == 0)
    #expect(stop.asked == 51)
  }
}
