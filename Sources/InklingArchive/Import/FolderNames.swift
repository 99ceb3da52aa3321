// The names in a folder, in byte order, one bounded batch at a time.
//
// A Drafts folder copied off an iPad is flat: a million saves can sit in one folder. Listing
// it whole would make an import's memory grow with the folder, and reading it in directory
// order would scatter each draft's files (the order is a hash on most file systems), so that
// a draft's saves could no longer be prepared together as deltas of each other. So a folder
// with more names than a batch holds is read once to count its names and draw a sample of
// them, then once per range of byte order the sample cuts it into, keeping only the names in
// that range. Each range holds about a batch; in order they give every name once, sorted,
// and a draft's files (which all begin with its name) stay together.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FolderNames {
  /// The most names one batch is meant to hold. Each pass over a folder larger than this
  /// reads every entry again, so a batch is large enough that a million names take a few
  /// passes, and small enough to be a few megabytes (a batch keeps its names' bytes in one
  /// buffer).
  static let batchSize = 131_072

  /// How many names the first pass keeps to place the ranges' bounds: enough that each
  /// range's share is known to within a few percent.
  static let sampleSize = 8_192

  /// Calls `body` with the folder's names in byte order, a batch at a time, while it returns
  /// true. Returns false when the folder cannot be read (with `errno` set), true otherwise.
  static func forEachBatch(
    in folder: String, batchSize: Int = batchSize, _ body: (Batch) throws -> Bool
  ) rethrows -> Bool {
    guard let directory = opendir(folder) else { return false }
    defer { closedir(directory) }
    var first: Batch? = Batch()
    var count = 0
    var sample = Reservoir(capacity: sampleSize)
    forEachName(directory) { name in
      count += 1
      if first != nil {
        if first!.count < batchSize { first!.append(name) } else { first = nil }
      }
      sample.offer(name)
    }
    if var names = first {
      names.sort()
      _ = try body(names)
      return true
    }
    // A range per batch, each filled to a little less than a batch: the sample's estimate of
    // a range's share is not exact.
    let ranges = (count + batchSize * 7 / 8 - 1) / (batchSize * 7 / 8)
    let bounds = sample.sorted().bounds(cutting: ranges)
    for range in 0...bounds.count {
      let lower = range > 0 ? bounds[range - 1] : nil
      let upper = range < bounds.count ? bounds[range] : nil
      var names = Batch()
      rewinddir(directory)
      forEachName(directory) { name in
        if let lower, name.lexicographicallyPrecedes(lower) { return }
        if let upper, !name.lexicographicallyPrecedes(upper) { return }
        names.append(name)
      }
      names.sort()
      guard try body(names) else { break }
    }
    return true
  }

  /// Names in one buffer, in the order `sort` gives: an array of arrays would take a heap
  /// block and a header for each name, twice what the bytes take.
  struct Batch: Sequence {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []
    private var order: [Int32] = []

    var count: Int { ends.count }

    mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
      bytes.append(contentsOf: name)
      ends.append(Int32(bytes.count))
      order.append(Int32(order.count))
    }

    mutating func sort() {
      var order = self.order
      self.order = []
      order.sort { name(Int($0)).lexicographicallyPrecedes(name(Int($1))) }
      self.order = order
    }

    private func name(_ index: Int) -> ArraySlice<UInt8> {
      bytes[(index > 0 ? Int(ends[index - 1]) : 0)..<Int(ends[index])]
    }

    func makeIterator() -> AnyIterator<FileWalker.RawName> {
      var position = 0
      return AnyIterator {
        guard position < order.count else { return nil }
        let bytes = name(Int(order[position]))
        position += 1
        let text = String(validating: bytes, as: UTF8.self)
        return FileWalker.RawName(text: text, display: text ?? FileWalker.escaped(Array(bytes)))
      }
    }
  }

  /// Each entry's name but `.` and `..`, as the bytes readdir gives.
  private static func forEachName(_ directory: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    while let entry = readdir(directory) {
      withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let name = UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
        if name.count == 1 && name[0] == UInt8(ascii: ".") { return }
        if name.count == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".") { return }
        body(name)
      }
    }
  }

  /// A uniform sample of the names offered (Vitter's algorithm R), drawn with a fixed seed so
  /// that the same folder is read in the same passes.
  private struct Reservoir {
    let capacity: Int
    private(set) var names: [[UInt8]] = []
    private var offered = 0
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(capacity: Int) { self.capacity = capacity }

    mutating func offer(_ name: UnsafeBufferPointer<UInt8>) {
      offered += 1
      if names.count < capacity {
        names.append(Array(name))
      } else {
        let slot = Int(next() % UInt64(offered))
        if slot < capacity { names[slot] = Array(name) }
      }
    }

    func sorted() -> [[UInt8]] { names.sorted { $0.lexicographicallyPrecedes($1) } }

    /// SplitMix64: a small generator whose sequence is the same on every machine.
    private mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}

extension [[UInt8]] {
  /// The `parts - 1` names that cut this sorted sample into `parts` equal shares.
  fileprivate func bounds(cutting parts: Int) -> [[UInt8]] {
    guard parts > 1, !isEmpty else { return [] }
    var bounds: [[UInt8]] = []
    for part in 1..<parts {
      let bound = self[part * count / parts]
      if bounds.last != bound { bounds.append(bound) }
    }
    return bounds
  }
}
