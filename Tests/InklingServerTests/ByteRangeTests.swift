// Downloads answer `Range`: one range is 206 with its Content-Range, a range past the end 416
// with the length, an If-Range naming another file the whole file, and every download says it
// takes ranges.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct ByteRangeTests {
  @Test func aDownloadGoesOnFromWhereItStopped() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let entry = try #require(try archive.draftPage(limit: 1).drafts.first)
    let id = entry.latestVersion
    let whole = try archive.originalFile(of: id).bytes
    #expect(whole.count > 100)
    let target = "/versions/\(id)/file"

    let plain = try served.get(target)
    #expect(plain.status == 200)
    #expect(plain.header("Accept-Ranges") == "bytes")
    #expect(plain.body == whole)

    let middle = try served.get(target, headers: [("Range", "bytes=10-49")])
    #expect(middle.status == 206)
    #expect(middle.body == Array(whole[10...49]))
    #expect(middle.header("Content-Range") == "bytes 10-49/\(whole.count)")

    let rest = try served.get(target, headers: [("Range", "bytes=60-")])
    #expect(rest.status == 206)
    #expect(rest.body == Array(whole[60...]))

    let tail = try served.get(target, headers: [("Range", "bytes=-7")])
    #expect(tail.body == Array(whole.suffix(7)))

    let beyond = try served.get(target, headers: [("Range", "bytes=\(whole.count)-")])
    #expect(beyond.status == 416)
    #expect(beyond.header("Content-Range") == "bytes */\(whole.count)")

    // Several ranges, or a unit we do not read: the whole file.
    for header in ["bytes=0-1,5-6", "lines=1-2", "bytes=abc"] {
      let answer = try served.get(target, headers: [("Range", header)])
      #expect(answer.status == 200, "\(header)")
      #expect(answer.body == whole, "\(header)")
    }

    // If-Range with the file's tag resumes; with another tag the whole (changed) file comes.
    let tag = try #require(plain.header("ETag"))
    let resumed = try served.get(target, headers: [("Range", "bytes=10-"), ("If-Range", tag)])
    #expect(resumed.status == 206)
    let other = try served.get(target, headers: [("Range", "bytes=10-"), ("If-Range", "\"other\"")])
    #expect(other.status == 200)
    #expect(other.body == whole)
  }
}
