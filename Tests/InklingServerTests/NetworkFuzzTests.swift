// A fuzzer for what the network sends, through the server's request chain (the daemon's
// handler) against a real archive, as scripts/fuzz is for the drawing reader: request lines,
// headers, query strings and the search language, generated from what the routes read (their
// paths, keys, the archive's real ids and hostile names, the search grammar) and then mutated
// byte by byte. libmicrohttpd's own parsing is fuzzed over sockets in HostileRequestTests;
// here every request reaches our code.
//
// A run passes when the process is still alive and every answer is one a client may get: no
// 500 (an error no view expected), every response with the security headers, a 304 without a
// body (a HEAD's body is dropped by libmicrohttpd). The run is seeded (SERVE_FUZZ_SEED) so
// that a failure replays, and its length is SERVE_FUZZ_SECONDS (a few seconds in the test
// suite; scripts/fuzz-serve runs longer). The routes that make a video, a zip or a large
// picture are drawn rarely: each costs seconds in a debug build, and a run spent in them
// would fuzz little else.

import Foundation
import InklingArchive
import InklingCorpus
import Testing

@testable import InklingServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct NetworkFuzzTests {
  static let minimumRuns = 60

  @Test func fuzzedRequestsGetOnlyAnswersAClientMayGet() throws {
    let environment = ProcessInfo.processInfo.environment
    let seconds = Double(environment["SERVE_FUZZ_SECONDS"] ?? "") ?? 4
    let seed = UInt64(environment["SERVE_FUZZ_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
    let served = try ServedArchive(spec: CorpusSpec(drafts: 12, versionsPerDraft: 1...4, seed: 23))
    let archive = try served.archive()
    let drafts = try archive.drafts()
    let versionIds = try drafts.flatMap { try archive.timeline(of: $0.name).map(\.id.rawValue) }
    // Two drafts in the trash, whose pages and pictures answer only when asked with trash=1.
    let writer = try Archive(path: served.archivePath)
    for draft in drafts.prefix(2) { _ = try writer.delete(draft: draft.name) }
    var generator = RequestGenerator(
      seed: seed, draftIds: drafts.map(\.id.rawValue), versionIds: versionIds, names: drafts.map(\.name))

    let deadline = Date().addingTimeInterval(seconds)
    var runs = 0
    var statuses: [Int: Int] = [:]
    var problems: [String] = []
    var slowest: [(seconds: Double, request: String)] = []
    // The time, but never fewer requests than `minimumRuns`: a loaded machine answers the
    // expensive ones (a time-lapse, a zip) slowly, and the run must still cover the routes.
    while Date() < deadline || runs < Self.minimumRuns {
      let request = generator.next()
      let started = Date()
      let response = served.server.answer(request.http)
      let took = Date().timeIntervalSince(started)
      runs += 1
      statuses[response.status, default: 0] += 1
      let replay = "seed \(seed), request \(runs): \(request.method) \(request.target.debugDescription)"
      let body = String(decoding: response.body.prefix(300), as: UTF8.self)
      if response.status == 500 || !(200..<600).contains(response.status) {
        problems.append("\(replay) answered \(response.status): \(body)")
      }
      if response.header("Content-Security-Policy") == nil || response.header("X-Content-Type-Options") != "nosniff" {
        problems.append("\(replay) lacks the security headers")
      }
      if response.status == 304 && !response.body.isEmpty { problems.append("\(replay): a 304 with a body") }
      slowest = Array(
        (slowest + [(took, "\(request.method) \(request.target)")]).sorted { $0.seconds > $1.seconds }.prefix(3))
      // Enough to act on; a broken build fails in seconds rather than after the whole run.
      if problems.count >= 20 { break }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    #expect(try served.get("/").status == 200)
    let counts = statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
    print("serve fuzz: \(runs) requests in \(Int(seconds)) s, seed \(seed), peak RSS \(peakMegabytes()) MB; \(counts)")
    for (seconds, request) in slowest {
      print(String(format: "serve fuzz: slowest %.3f s ", seconds) + request.prefix(200))
    }
  }

  /// The fuzzer's way in (ArchiveServer.answer) is the daemon's handler: the same request
  /// gets the same status, headers and body through it as over a socket, whichever step
  /// answers it (method, target, access, cross-site work, a view now or on the work queue,
  /// an error, a 304, gzip).
  @Test func theFuzzersWayInAnswersAsTheDaemonDoes() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let entry = try #require(try archive.draftPage(limit: 1).drafts.first)
    let id = entry.latestVersion
    let gzip = [("Accept-Encoding", "gzip")]
    let requests: [(method: String, target: String, headers: [(String, String)])] = [
      ("GET", "/", gzip), ("HEAD", "/api/drafts", []), ("POST", "/", []), ("GET", "/a/../b", []),
      ("GET", "/nowhere", []), ("GET", "/api/draft?id=999999", []), ("GET", "/?q=%28", []),
      ("GET", "/draft?id=\(entry.draft.id)", gzip), ("GET", "/versions/\(id)/thumbnail.png?size=128", []),
      ("GET", "/versions/\(id)/file", [("Range", "bytes=0-9")]),
      ("GET", "/versions/\(id)/render.png?scale=1", [("Sec-Fetch-Site", "cross-site")]),
      ("GET", "/static/style.css", [("If-None-Match", "*")]), ("GET", "/", [("Host", "attacker.example")]),
    ]
    for (method, target, headers) in requests {
      let host = headers.first { $0.0 == "Host" }?.1 ?? "127.0.0.1:\(served.port)"
      let others = headers.filter { $0.0 != "Host" }
      let sent = try HTTPClient.get(served.port, target, method: method, headers: others, host: host)
      let all = [("Host", host), ("Connection", "close")] + others
      let answered = served.server.answer(
        HTTPRequest(method: method, target: target) { name in all.first { $0.0.lowercased() == name.lowercased() }?.1 })
      #expect(answered.status == sent.status, "\(method) \(target)")
      if method != "HEAD" { #expect(answered.body == sent.body, "\(method) \(target)") }
      for (name, value) in answered.headers {
        #expect(sent.header(name) == value, "\(method) \(target): \(name)")
      }
    }
  }

  /// The largest resident set of this process so far, in MiB.
  func peakMegabytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
  }
}

/// Requests made from what the routes read, then sometimes mutated.
struct RequestGenerator {
  struct Request {
    var method: String
    var target: String
    var headers: [(String, String)]

    var http: HTTPRequest {
      let headers = headers
      return HTTPRequest(method: method, target: target) { name in
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
      }
    }
  }

  private var random: SeededRandom
  let draftIds: [Int64]
  let versionIds: [Int64]
  let names: [String]

  init(seed: UInt64, draftIds: [Int64], versionIds: [Int64], names: [String]) {
    random = SeededRandom(seed: seed)
    self.draftIds = draftIds
    self.versionIds = versionIds
    self.names = names
  }

  static let paths = [
    "/", "/draft", "/draft/compare", "/draft/marks", "/api/drafts", "/api/draft", "/trash", "/api/trash",
    "/static/style.css", "/static/app.js", "/static/", "/swatches/ffffff", "/swatches/zz", "/versions/", "/nowhere",
  ]
  static let heavyPaths = ["/draft/versions.zip", "/draft/timelapse.mp4"]
  static let versionFiles = ["thumbnail.png", "file", "", "x"]
  static let heavyVersionFiles = ["render.png", "changes.png"]
  static let keys = [
    "id", "name", "version", "from", "q", "since", "until", "on", "sort", "after", "limit", "size", "scale", "strokes",
    "strokesFrom", "trash", "token", "v", "r", "h", "x",
  ]
  static let odd = [
    "", "0", "-1", "1", "2", "3", "999999999999999999999", "9223372036854775807", "-9223372036854775808", "1e3",
    "0x10", " 1", "1 ", "+1", "1.5", "newest", "%", "%zz", "%00", "%C0%AF", "%ED%A0%80", "..", "%2e%2e", "%2F", "a/b",
    "\u{202E}", "猫", "<script>", "\"'", "\u{7F}", "\t", "&", "=", "#", "?",
  ]
  static let dates = [
    "2025", "2025-10", "2025-10-05", "2025-10-05T14:03", "2025-10-05T14:03:12Z", "2025-10-05T14:03+02:00", "today",
    "yesterday", "7d", "30min", "2mo", "30m", "2025-13", "2025-02-30", "last week", "99999-01-01", "-1d", "1y",
  ]
  static let fields = ["name", "saved", "imported", "versions", "strokes", "ink", "background", "source", "nope"]
  static let operators = ["", ">", ">=", "<", "<=", "=", "=>", "<<"]
  static let values = [
    "cat", "\"still life\"", "*", "?", "[a-", "[abc]", "\\", "#1a1a1f", "#fff", "#ggg", "white", "marker", "pen",
    "100", "-5", "99999999999999999999", "\"", "\"and\"", "Łódź", "CAFE", "", "a\u{301}",
  ]

  mutating func next() -> Request {
    var request = Request(method: method(), target: path() + query(), headers: headers())
    if chance(6) { request.target = mutated(request.target) }
    return request
  }

  private mutating func method() -> String {
    chance(12) ? pick(["POST", "PUT", "DELETE", "OPTIONS", "get", "", "G\u{0}T", "TRACE"]) : pick(["GET", "HEAD"])
  }

  private mutating func path() -> String {
    let heavy = chance(25)
    if chance(3) {
      let id = chance(5) ? pick(Self.odd) : String(pick(versionIds))
      return "/versions/\(id)/" + pick(heavy ? Self.heavyVersionFiles : Self.versionFiles)
    }
    return pick(heavy ? Self.heavyPaths : Self.paths)
  }

  private mutating func query() -> String {
    var pairs: [String] = []
    for _ in 0..<int(below: 6) {
      let key = chance(15) ? pick(Self.odd) : pick(Self.keys)
      pairs.append(encode(key) + "=" + encode(value(for: key)))
    }
    if chance(20) { pairs.append(String(repeating: "a", count: int(below: 20_000))) }
    return pairs.isEmpty ? "" : "?" + pairs.joined(separator: chance(10) ? ";" : "&")
  }

  private mutating func value(for key: String) -> String {
    if chance(6) { return pick(Self.odd) }
    switch key {
    case "id": return String(pick(draftIds))
    case "name": return chance(2) ? pick(names) : pick(names) + pick(Self.odd)
    case "version", "from", "size", "scale", "limit", "strokesFrom":
      return String(int(below: 8) - 1) + (chance(8) ? "000" : "")
    case "since", "until", "on": return pick(Self.dates)
    case "q": return search(depth: 0)
    case "sort": return pick(["name", "saved", "versions", "strokes", "-saved", "x"])
    case "trash", "strokes": return pick(["1", "0", "yes", ""])
    default: return pick(Self.odd)
    }
  }

  /// A query in the search language, well formed more often than not.
  private mutating func search(depth: Int) -> String {
    switch int(below: depth > 3 ? 2 : 6) {
    case 0: return pick(Self.values)
    case 1:
      let field = pick(Self.fields)
      let value = field == "saved" || field == "imported" ? pick(Self.dates) : pick(Self.values)
      return field + ":" + pick(Self.operators) + value
    case 2:
      return search(depth: depth + 1) + pick([" and ", " or ", " ", " and not ", " or or "]) + search(depth: depth + 1)
    case 3: return "not " + search(depth: depth + 1)
    case 4: return "(" + search(depth: depth + 1) + (chance(8) ? "" : ")")
    default: return pick(["(", ")", "\"", "and", "or", "not", ":", "name:", "saved:>", "\u{0}", "\u{202E}"])
    }
  }

  private mutating func headers() -> [(String, String)] {
    var headers = [
      (
        "Host",
        chance(10) ? pick(["127.rebind.example", "localhost:1", "[::1]", "", "127.0.0.256", "evil"]) : "127.0.0.1"
      )
    ]
    if chance(4) {
      headers.append(
        (
          "Range",
          pick(["bytes=0-0", "bytes=-1", "bytes=5-", "bytes=9-3", "bytes=0-1,2-3", "bytes=x", "items=0-1", "bytes=-0"])
        ))
    }
    if chance(4) { headers.append(("If-None-Match", pick(["*", "\"x\"", "W/\"x\"", "\"", "\"a\", \"b\""]))) }
    if chance(4) { headers.append(("Accept-Encoding", pick(["gzip", "gzip;q=0", "*", "br", "x-gzip, identity"]))) }
    if chance(8) { headers.append(("If-Range", pick(["\"x\"", "Sat, 01 Jan 2000 00:00:00 GMT", ""]))) }
    if chance(8) { headers.append(("Authorization", pick(["Bearer x", "Bearer ", "Basic Og=="]))) }
    if chance(8) { headers.append(("Cookie", pick(["token=x", "token=", "=", ";;"]))) }
    return headers
  }

  /// `text` with a few bytes replaced, dropped or repeated (kept only when still UTF-8, as
  /// HTTPDBridge passes only UTF-8 targets on).
  private mutating func mutated(_ text: String) -> String {
    var bytes = Array(text.utf8)
    for _ in 0..<(1 + int(below: 4)) where !bytes.isEmpty {
      let at = int(below: bytes.count)
      switch int(below: 3) {
      case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
      case 1: bytes.remove(at: at)
      default: bytes.insert(bytes[at], at: at)
      }
    }
    return String(validating: bytes, as: UTF8.self) ?? text
  }

  /// A query component as a browser encodes it, or (now and then) as given.
  private mutating func encode(_ text: String) -> String {
    if chance(10) { return text }
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~:")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  private mutating func chance(_ oneIn: Int) -> Bool { int(below: oneIn) == 0 }
  private mutating func int(below bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }
  private mutating func pick<T>(_ items: [T]) -> T { items[int(below: items.count)] }
}
