// The device drawings in Tests/Fixtures are the format's ground truth: each must stay the
// exact bytes the device wrote (SOURCES.md there), so their digests are pinned here.

import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct DeviceSamplesTests {
  @Test func eachSampleIsTheDevicesBytes() throws {
    let expected = [
      "empty": (42, "11d87e44f827e43e11c3a65baaf71c81d9af743d38e09b03a7ece1c0f4b0519d"),
      "pen-marker-hidden": (1027, "52014f1052eb4de82964a4ad3b8e1ea445fbf5d589eb24723ef51aafcc22a7bc"),
      "three-pen-strokes": (3101, "bb8cd671594dcc02037311817b4bd110185bf5119d3d7fa7acb2f79cd1bbf197"),
      "handwritten-half-notes": (1512, "73d5e09624973c36c2f1d83866720c44c6a13098f6dcf8d170ba3c5f1df3b1a4"),
    ]
    #expect(Set(DeviceSamples.drawingNames) == Set(expected.keys))
    for name in DeviceSamples.drawingNames {
      let bytes = try DeviceSamples.drawing(name)
      #expect(bytes.count == expected[name]?.0, "\(name)")
      #expect(hexString(SHA256.hash(bytes)) == expected[name]?.1, "\(name)")
    }
  }
}
