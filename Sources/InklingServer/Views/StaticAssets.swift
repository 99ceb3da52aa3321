// The stylesheet, the script and the icon, embedded in the binary at build time from Assets/
// (Package.swift: `.embedInCode("Assets")`), so the pages need no file and no network. Each
// URL carries a tag of the content (Links.asset), so a browser may keep an asset for good and
// a new build's asset has a new URL. Only these names are served: no request reaches a file.

import InklingFormats

enum StaticAssets {
  struct Asset: Sendable {
    var name: String
    var contentType: String
    var bytes: [UInt8]
    /// XXH64 of the bytes, in hex: the URL's `v` and the entity tag.
    var tag: String

    init(_ name: String, _ contentType: String, _ bytes: [UInt8]) {
      self.name = name
      self.contentType = contentType
      self.bytes = bytes
      let digits = String(XXHash64.hash(bytes), radix: 16)
      tag = String(repeating: "0", count: 16 - digits.count) + digits
    }
  }

  static let style = Asset("style.css", "text/css; charset=utf-8", PackageResources.style_css)
  static let script = Asset("app.js", "text/javascript; charset=utf-8", PackageResources.app_js)
  static let icon = Asset("icon.svg", "image/svg+xml", PackageResources.icon_svg)

  static let all = [style, script, icon]

  /// `/static/NAME`: the asset, immutable when asked for by its current tag.
  static func response(name: String, target: RequestTarget) -> HTTPResponse? {
    guard let asset = all.first(where: { $0.name == name }) else { return nil }
    let current = target.parameter("v") == asset.tag
    return HTTPResponse(
      contentType: asset.contentType, body: asset.bytes, cache: current ? .immutable : .revalidate, tag: asset.tag)
  }
}
