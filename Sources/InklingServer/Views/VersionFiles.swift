// `/versions/ID/…`: a version's thumbnail, share image and original file, and `/swatches/…`. A
// version id names one saved file only within one archive file: another archive put at the path
// numbers its versions afresh (docs/decisions.md, "Immutable only when the URL names the
// content"). So these are cached as immutable only when the URL also names their content (`h`:
// the first 16 hex digits of the hash the entity tag is made of) and, for images, the renderer
// (`r`, Links.swift); else they revalidate, and entity tags come from what the bytes depend on,
// so a revalidation costs a look-up, not a render.

import InklingArchive
import InklingFormats
import InklingRendering

enum VersionFiles {
  /// The version id of a `/versions/ID/…` path: decimal digits only.
  static func id(_ segment: String) throws(RequestError) -> VersionID {
    guard !segment.isEmpty, segment.count <= 18, segment.allSatisfy(\.isASCII), segment.allSatisfy(\.isNumber),
      let value = Int64(segment)
    else { throw RequestError(404, "there is no version \"\(segment)\"") }
    return VersionID(rawValue: value)
  }

  /// Immutable while the URL names the content (`h`) and, for an image, the current renderer.
  static func policy(_ target: RequestTarget, content: String, image: Bool = true) -> CachePolicy {
    let named = target.parameter("h").map { $0.count == 16 && content.hasPrefix($0) } ?? false
    return named && (!image || target.parameter("r") == String(Renderer.version)) ? .immutable : .revalidate
  }

  /// An integer query parameter, `fallback` when absent.
  static func integer(_ target: RequestTarget, _ key: String, fallback: Int) throws(RequestError) -> Int {
    guard let text = target.parameter(key) else { return fallback }
    guard let value = Int(text) else { throw RequestError(400, "\(key) is a whole number, not \"\(text)\"") }
    return value
  }

  /// `/versions/ID/thumbnail.png?size=S`, through the server's thumbnail caches (ThumbnailService).
  static func thumbnail(_ id: VersionID, _ context: RequestContext) throws -> Answer<ViewWork> {
    let size = try integer(context.target, "size", fallback: GridView.thumbnailSize)
    return try context.server.thumbnails.answer(id, size: size, context)
  }

  static func render(_ id: VersionID, _ context: RequestContext, format: PictureFormat = .png) throws
    -> Answer<ViewWork>
  {
    let (target, request, pool) = (context.target, context.request, context.pool)
    let contentType =
      switch format {
      case .png: HTTPResponse.png
      case .svg: "image/svg+xml"
      case .pdf: "application/pdf"
      }
    let scale = try integer(target, "scale", fallback: 2)
    guard VersionView.scales.contains(scale) else {
      throw RequestError(400, "scale is 1, 2 or 3 pixels per point, not \(scale)")
    }
    let file = try pool.withArchive { try $0.versionFile(id) }
    try requireTrashAsked(file.draftInTrash, target)
    let policy = policy(target, content: file.sha256)
    let tag = file.tag(ofShareImageAt: Double(scale), format: format)
    if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [tag]) {
      return .now(HTTPResponse(contentType: contentType, body: [], cache: policy, tag: tag))
    }
    return .later {
      let bytes = try pool.withArchive { try $0.render(version: id, scale: Double(scale), format: format) }
      return HTTPResponse(contentType: contentType, body: bytes, cache: policy, tag: tag)
    }
  }

  /// `/versions/ID/changes.png?from=ID2`: what version ID changed against version ID2.
  static func changes(_ id: VersionID, _ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, request, pool) = (context.target, context.request, context.pool)
    guard let text = target.parameter("from") else {
      throw RequestError(400, "changes against which version? The address needs ?from=ID")
    }
    let from = try Self.id(text)
    let scale = try integer(target, "scale", fallback: 2)
    guard VersionView.scales.contains(scale) else {
      throw RequestError(400, "scale is 1, 2 or 3 pixels per point, not \(scale)")
    }
    let (before, after) = try pool.withArchive { (try $0.versionFile(from), try $0.versionFile(id)) }
    try requireTrashAsked(before.draftInTrash || after.draftInTrash, target)
    let tag = after.changesTag(against: before, scale: Double(scale))
    if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [tag]) {
      return .now(HTTPResponse(contentType: HTTPResponse.png, body: [], cache: .revalidate, tag: tag))
    }
    return .later {
      let png = try pool.withArchive { try $0.changesImage(from: from, to: id, scale: Double(scale)) }
      return HTTPResponse(contentType: HTTPResponse.png, body: png, cache: .revalidate, tag: tag)
    }
  }

  /// `/draft/versions.zip?id=D`: every version's original file in one zip, as
  /// `restore --all-versions` names them; refused past `limit` bytes of files, as it is built
  /// in memory.
  static func zip(_ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, pool, limit) = (context.target, context.pool, context.server.zipBytes)
    let reference = try DraftView.reference(target)
    let draft = try pool.withArchive { try $0.timeline(of: reference, changesFor: []) }
    let total = draft.filesSize
    guard total <= limit else { throw ArchiveError.tooLargeToZip(draft: draft.name, bytes: total, limit: limit) }
    let name = draft.name + ".zip"
    return .later {
      let bytes = try pool.withArchive { try $0.versionsZip(draft: draft.name, limit: limit) }
      var response = HTTPResponse(
        contentType: "application/zip", body: bytes, headers: [("Content-Disposition", contentDisposition(name))])
      response.ranges = true
      return response
    }
  }

  /// A trashed draft's pictures are drawn only for its own pages, which ask with `trash=1`:
  /// a client walking version ids makes no render of what the user put away.
  static func requireTrashAsked(_ draftInTrash: Bool, _ target: RequestTarget) throws(RequestError) {
    guard draftInTrash, target.parameter("trash") != "1" else { return }
    throw RequestError(404, "this version's draft is in the trash; its page, listed in the trash, shows it")
  }

  /// The original file, under its original name; a part of it for a `Range` request, cut
  /// from the file as it is rebuilt. One answer holds no more than `limit` bytes of the file
  /// or of a drawing it is decoded through (an archive merged from someone else may declare
  /// any size): a larger version is refused before anything is decoded.
  static func file(_ id: VersionID, _ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, request, pool, limit) = (context.target, context.request, context.pool, context.server.fileBytes)
    let file = try pool.withArchive { try $0.versionFile(id) }
    let policy = policy(target, content: file.sha256, image: false)
    let headers = [("Content-Disposition", contentDisposition(file.fileName))]
    if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [file.sha256]) {
      return .now(HTTPResponse(contentType: "application/octet-stream", body: [], cache: policy, tag: file.sha256))
    }
    let length = Int(clamping: file.size)
    let wanted = ByteRanges.wanted(
      request.header("Range"), ifRange: request.header("If-Range"), tag: file.sha256, length: length)
    return .later {
      var part: ClosedRange<Int>?
      switch wanted {
      case .range(let range): part = range
      case .whole, .unsatisfiable: part = nil
      }
      if wanted == .unsatisfiable {
        let empty = HTTPResponse(contentType: "application/octet-stream", body: [], cache: policy, headers: headers)
        return ByteRanges.unsatisfiable(empty, length: length)
      }
      let original = try pool.withArchive { try $0.originalFile(of: id, part: part, limit: limit) }
      var response = HTTPResponse(
        contentType: "application/octet-stream", body: original.bytes, cache: policy, tag: file.sha256,
        headers: headers)
      guard let part else {
        response.ranges = true
        return response
      }
      return ByteRanges.part(response, part, of: length, tag: file.sha256)
    }
  }

  /// `attachment` with the name twice (RFC 6266): an ASCII fallback in which anything else is
  /// `_`, and the name as UTF-8 in `filename*` (RFC 8187), percent-encoded. In both, what
  /// would make the saved file's name lie or break is `_`: control characters, slashes, and
  /// the invisible and direction-changing ones (`x\u{202E}gnp.exe` shows as `xexe.png`).
  static func contentDisposition(_ name: String) -> String {
    let name = String(
      String.UnicodeScalarView(
        Swift.zip(name.unicodeScalars, Quoted.unsafeScalars(in: name)).map { scalar, unsafe in
          unsafe || scalar == "/" || scalar == "\\" ? "_" : scalar
        }))
    let fallback = String(
      name.unicodeScalars.map { scalar -> Character in
        scalar.isASCII && scalar != "\"" && scalar != "%" ? Character(scalar) : "_"
      })
    return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(Escape.urlComponent(name))"
  }

  /// `/swatches/RRGGBBAA.svg`: a rounded square of that colour, for backgrounds and inks.
  static func swatch(_ name: String) throws(RequestError) -> HTTPResponse {
    let hex = name.hasSuffix(".svg") ? String(name.dropLast(4)) : ""
    guard hex.count == 8, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
      throw RequestError(404, "a swatch is named by eight lowercase hex digits, RRGGBBAA.svg")
    }
    let alpha = Double(Int(hex.suffix(2), radix: 16) ?? 255) / 255
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">\
      <rect x="0.5" y="0.5" width="15" height="15" rx="3" fill="#\(hex.prefix(6))" fill-opacity="\(alpha)" \
      stroke="#8a8a8a"/></svg>
      """
    return HTTPResponse(contentType: "image/svg+xml", body: Array(svg.utf8), cache: .immutable)
  }
}
