// One draft saved N times, one stroke more each save (`ManySavesDraft`), for measuring the
// views of a long history: the draft page, its JSON, the time-lapse's marks and `timelapse`.

import Foundation
import InklingTestSupport

enum ManySavesBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "manysaves", abstract: "Write one draft saved N times, one stroke a save, into a folder.",
    usage: "[--saves N] FOLDER", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let saves = arguments.int("--saves", default: 2_000)
    arguments.finish(operands: 1...1)
    let folder = arguments.operands[0]
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try ManySavesDraft(strokes: saves).write(saves: saves, to: folder)
    print("\(folder): \(saves) saves of \(ManySavesDraft.name)")
    return 0
  }
}
