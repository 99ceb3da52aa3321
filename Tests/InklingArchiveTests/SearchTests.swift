import Foundation
import InklingCorpus
import InklingFormats
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Results of `drafts(matching:sort:limit:)` against a straightforward in-memory filter over
/// generated data, and the plans SQLite uses for each query shape.
@Suite(.serialized) struct SearchTests {
  /// 2026-11-29T12:00:00Z.
  static let now: Int64 = 1_795_953_600_000
  static let timeZone = TimeZone(identifier: "Europe/Berlin")!

  /// One archive for the whole suite (built once; the tests only read it).
  final class Shared: @unchecked Sendable {
    let folder: TemporaryFolder
    let archive: Archive
    let models: [DraftModel]
    let reference: Reference

    init() throws {
      folder = try TemporaryFolder.forTheProcess("search")
      archive = try Archive(path: folder.path("archive.sqlite"))
      models = try SearchFixture.build(
        in: archive.database, drafts: 3_000, versions: 1...6, blobs: 200, now: SearchTests.now, seed: 42
      ).models
      reference = Reference(models)
    }
  }
  nonisolated(unsafe) static var sharedValue: Shared?
  static func shared() throws -> Shared {
    if let sharedValue { return sharedValue }
    let value = try Shared()
    sharedValue = value
    return value
  }

  // MARK: - The reference

  static func matches(_ expression: SearchExpression, _ draft: DraftModel) -> Bool {
    switch expression {
    case .all: return true
    case .term(let term): return matches(term, draft)
    case .and(let children): return children.allSatisfy { matches($0, draft) }
    case .or(let children): return children.contains { matches($0, draft) }
    case .not(let inner): return !matches(inner, draft)
    }
  }

  static func matches(_ term: SearchTerm, _ draft: DraftModel) -> Bool {
    let name = draft.folded
    switch term {
    // Name texts are folded beforehand (`folded(_:)`), but for exact names, which are NFC.
    case .name(.contains(let text)): return scalars(name, contain: text)
    case .name(.exact(let text)): return DraftFileName.canonicalName(draft.name) == text
    case .name(.glob(let pattern)): return glob(Array(pattern.unicodeScalars), Array(name.unicodeScalars))
    case .saved(let period): return draft.versions.contains { period.contains($0.saved) }
    case .imported(let period): return draft.versions.contains { period.contains($0.imported) }
    case .versions(let comparison, let count): return comparison.holds(draft.versions.count, count)
    case .strokes(let comparison, let count): return draft.strokes.map { comparison.holds($0, count) } ?? false
    case .ink(let ink): return draft.inks.contains(ink)
    case .background(let red, let green, let blue, let tolerance):
      return abs(draft.background.0 - red) <= tolerance && abs(draft.background.1 - green) <= tolerance
        && abs(draft.background.2 - blue) <= tolerance
    // The fixture records no sources (SourceTests searches them), and nobody tagged or
    // starred, noted or labelled its drafts (the command tests of each search those).
    case .source, .tag, .note, .label: return false
    case .stars(let comparison, let count): return comparison.holds(0, count)
    }
  }

  /// The expression with its name texts folded.
  static func folded(_ expression: SearchExpression) -> SearchExpression {
    switch expression {
    case .all: return .all
    case .term(.name(.contains(let text))): return .term(.name(.contains(NameFolding.fold(text))))
    case .term(.name(.exact(let text))): return .term(.name(.exact(DraftFileName.canonicalName(text))))
    case .term(.name(.glob(let text))): return .term(.name(.glob(NameFolding.fold(text))))
    case .term: return expression
    case .and(let children): return .and(children.map(folded))
    case .or(let children): return .or(children.map(folded))
    case .not(let inner): return .not(folded(inner))
    }
  }

  /// Substring search over code points, as SQLite's instr.
  static func scalars(_ text: String, contain term: String) -> Bool {
    let haystack = Array(text.unicodeScalars)
    let needle = Array(term.unicodeScalars)
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    outer: for start in 0...(haystack.count - needle.count) {
      for offset in 0..<needle.count where haystack[start + offset] != needle[offset] { continue outer }
      return true
    }
    return false
  }

  /// A plain glob matcher: `*`, `?`, `[set]` with ranges and `^` negation.
  static func glob(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
    glob(pattern, from: 0, text, from: 0)
  }

  /// Whether `pattern` from `p` on matches `text` from `t` on (offsets, not copies: the random
  /// queries try thousands of names).
  static func glob(_ pattern: [Unicode.Scalar], from p: Int, _ text: [Unicode.Scalar], from t: Int) -> Bool {
    guard p < pattern.count else { return t == text.count }
    switch pattern[p] {
    case "*":
      return (t...text.count).contains { glob(pattern, from: p + 1, text, from: $0) }
    case "?":
      return t < text.count && glob(pattern, from: p + 1, text, from: t + 1)
    case "[":
      guard t < text.count else { return false }
      let c = text[t]
      var index = p + 1
      var negate = false
      if index < pattern.count, pattern[index] == "^" {
        negate = true
        index += 1
      }
      var matched = false
      var firstInSet = true
      while index < pattern.count, pattern[index] != "]" || firstInSet {
        firstInSet = false
        if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
          if pattern[index].value <= c.value && c.value <= pattern[index + 2].value { matched = true }
          index += 3
        } else {
          if pattern[index] == c { matched = true }
          index += 1
        }
      }
      return matched != negate && glob(pattern, from: index + 1, text, from: t + 1)
    default:
      return t < text.count && text[t] == pattern[p] && glob(pattern, from: p + 1, text, from: t + 1)
    }
  }

  /// The drafts in the order `sort` lists them.
  static func sorted(_ drafts: [DraftModel], _ sort: DraftSort) -> [DraftModel] {
    func bytes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
    // Newest and oldest break ties as draft_by_latest does: first save, then id (insertion order).
    let keyed = drafts.map { d in (draft: d, key: (d.latestSaved, d.versions.map(\.saved).min()!, d.id)) }
    return keyed.sorted { x, y in
      let (a, b) = (x.draft, y.draft)
      switch sort {
      case .newest, .stars: return x.key > y.key
      case .oldest: return x.key < y.key
      case .name: return a.folded != b.folded ? bytes(a.folded, b.folded) : bytes(a.name, b.name)
      case .versions:
        return a.versions.count != b.versions.count
          ? a.versions.count > b.versions.count
          : a.latestSaved != b.latestSaved ? a.latestSaved > b.latestSaved : bytes(a.name, b.name)
      }
    }.map(\.draft)
  }

  /// What a query should find among `models`: each sort's order is made once, so that a query
  /// only filters it (and stops at its limit), as the hundreds of random queries need.
  struct Reference {
    let orders: [DraftSort: [DraftModel]]

    init(_ models: [DraftModel]) {
      orders = Dictionary(uniqueKeysWithValues: DraftSort.allCases.map { ($0, SearchTests.sorted(models, $0)) })
    }

    func expected(_ expression: SearchExpression, sort: DraftSort, limit: Int?) -> [String] {
      let merged = folded(SearchCompiler.mergingPeriods(expression))
      var names: [String] = []
      for model in orders[sort]! where matches(merged, model) {
        names.append(model.name)
        if names.count == limit { break }
      }
      return names
    }
  }

  // MARK: - Random queries

  struct QueryMaker {
    var random: SeededRandom
    let models: [DraftModel]

    mutating func nameText() -> String {
      let name = models.randomElement(using: &random)!.name
      let scalars = Array(name.unicodeScalars)
      switch Int.random(in: 0..<10, using: &random) {
      case 0: return SearchFixture.words.randomElement(using: &random)!.uppercased()
      case 1: return SearchFixture.shortNames.randomElement(using: &random)!
      case 2: return ["zzq", "qx", "ĳ", "nothing-like-this"].randomElement(using: &random)!
      case 3: return SearchFixture.words.randomElement(using: &random)!.decomposedStringWithCanonicalMapping
      default:
        // A piece of a real name, one to eight characters.
        let length = min(scalars.count, Int.random(in: 1...8, using: &random))
        let start = Int.random(in: 0...(scalars.count - length), using: &random)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<start + length])
        let text = String(view)
        return Bool.random(using: &random) ? text.uppercased() : text
      }
    }

    mutating func period() -> SearchPeriod {
      let instant = Int64.random(in: SearchFixture.start...SearchTests.now, using: &random)
      let date = Date(timeIntervalSince1970: Double(instant) / 1000)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = SearchTests.timeZone
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let text: String
      switch Int.random(in: 0..<6, using: &random) {
      case 0: text = String(format: "%04d", parts.year!)
      case 1: text = String(format: "%04d-%02d", parts.year!, parts.month!)
      case 2, 3: text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
      case 4: text = ["today", "yesterday", "7d", "3w", "2mo", "1y"].randomElement(using: &random)!
      default: text = ISO8601DateFormatter().string(from: date)
      }
      let range = try! DateExpression.parse(
        text, now: Date(timeIntervalSince1970: Double(SearchTests.now) / 1000), timeZone: SearchTests.timeZone)
      return SearchPeriod(SearchComparison.allCases.randomElement(using: &random)!, range)
    }

    mutating func term() -> SearchTerm {
      let comparison = SearchComparison.allCases.randomElement(using: &random)!
      switch Int.random(in: 0..<14, using: &random) {
      case 0...4: return .name(.contains(nameText()))
      case 5:
        let name = models.randomElement(using: &random)!.name
        return .name(.exact(Bool.random(using: &random) ? name.lowercased() : name))
      case 6:
        let text = nameText()
        return .name(
          .glob(["\(text)*", "*\(text)*", "*\(text)", "?\(text)*", "[a-c]*\(text)*"].randomElement(using: &random)!))
      case 7, 8: return .saved(period())
      case 9: return .imported(period())
      case 10: return .versions(comparison, Int.random(in: 0...7, using: &random))
      case 11: return .strokes(comparison, Int.random(in: 0...400, using: &random))
      case 12: return .ink(SearchFixture.inks.randomElement(using: &random)!)
      default:
        let colour = SearchFixture.backgrounds.randomElement(using: &random)!
        return .background(red: colour.0, green: colour.1, blue: colour.2, tolerance: 0.05)
      }
    }

    mutating func expression(depth: Int = 0) -> SearchExpression {
      switch depth < 2 ? Int.random(in: 0..<10, using: &random) : 0 {
      case 0...4: return .term(term())
      case 5...6: return .and((0..<Int.random(in: 2...3, using: &random)).map { _ in expression(depth: depth + 1) })
      case 7...8: return .or((0..<Int.random(in: 2...3, using: &random)).map { _ in expression(depth: depth + 1) })
      default: return .not(expression(depth: depth + 1))
      }
    }
  }

  // MARK: - Tests

  /// The compiler as the archive uses it, and one whose thresholds make 3,000 drafts behave
  /// like a million: small drivers are rare, walks are bounded and give up, periods are
  /// read class by class.
  static func compilers(_ database: Database) -> [(String, SearchCompiler)] {
    [
      ("default", SearchCompiler(database: database)),
      ("scaled", SearchCompiler(database: database, estimateCap: 20, walkLength: 120, fallbackEstimateCap: 200)),
    ]
  }

  static func drafts(
    _ archive: Archive, _ compiler: SearchCompiler, _ expression: SearchExpression, sort: DraftSort, limit: Int?
  ) throws -> [String] {
    var names: [String] = []
    try archive.forEachDraft(matching: DraftQuery(expression), sort: sort, limit: limit, compiler: compiler) {
      names.append($0.name)
    }
    return names
  }

  @Test func randomQueriesMatchTheReference() throws {
    let shared = try Self.shared()
    for (label, compiler) in Self.compilers(shared.archive.database) {
      var maker = QueryMaker(random: SeededRandom(seed: 7), models: shared.models)
      var nonEmpty = 0
      var plans: [CompiledSearch.Plan: Int] = [:]
      var fallbacks: [String: Int] = [:]
      for index in 0..<600 {
        let expression = maker.expression()
        let sort = DraftSort.allCases[index % 4]
        let limit: Int? =
          index % 3 == 0 ? nil : [1, 20, 50][index % 3 == 1 ? 1 : Int.random(in: 0...2, using: &maker.random)]
        let found = try Self.drafts(shared.archive, compiler, expression, sort: sort, limit: limit)
        let expected = shared.reference.expected(expression, sort: sort, limit: limit)
        #expect(found == expected, "\(label): \(expression) sort \(sort) limit \(limit.map(String.init) ?? "none")")
        if !expected.isEmpty { nonEmpty += 1 }
        let compiled = try compiler.compile(expression, sort: sort, limit: limit)
        plans[compiled.plan, default: 0] += 1
        if compiled.plan == .boundedWalk, let limit {
          let walked = try shared.archive.database.fetchAll(compiled.sql, compiled.arguments) { _ in 0 }.count
          if walked < limit,
            let fallback = try compiler.fallback(after: compiled, expression, sort: sort, limit: limit, found: walked)
          {
            fallbacks[fallback.continues ? "rest of the walk" : "driver", default: 0] += 1
          }
        }
      }
      #expect(nonEmpty > 300, "the random queries should mostly find something")
      if label == "scaled" {
        #expect(plans.count == 4, "every plan should be tried: \(plans)")
        #expect(fallbacks.count == 2, "both fallbacks should be tried: \(fallbacks)")
      }
    }
  }

  /// Period queries, newest first, at the scaled thresholds: every one is read class by
  /// class, whatever the period's length and wherever it lies.
  @Test func periodsReadClassByClassMatchTheReference() throws {
    let shared = try Self.shared()
    let compiler = Self.compilers(shared.archive.database)[1].1
    var maker = QueryMaker(random: SeededRandom(seed: 11), models: shared.models)
    var periods = 0
    for index in 0..<300 {
      var expression = SearchExpression.term(.saved(maker.period()))
      if index % 3 == 0 { expression = expression && .term(.name(.contains(maker.nameText()))) }
      if index % 5 == 0 { expression = expression && .term(maker.term()) }
      let limit = [1, 5, 50][index % 3]
      let found = try Self.drafts(shared.archive, compiler, expression, sort: .newest, limit: limit)
      #expect(
        found == shared.reference.expected(expression, sort: .newest, limit: limit), "\(expression) limit \(limit)")
      if try compiler.compile(expression, sort: .newest, limit: limit).plan == .period { periods += 1 }
    }
    #expect(periods > 100)
  }

  /// Invariant of migration 0006: span_class c holds the drafts whose span (newest save −
  /// first save) is below DraftSearchSQL.spanLimits[c] and not below spanLimits[c − 1].
  @Test func spanClassesMatchTheCompilersLimits() throws {
    let shared = try Self.shared()
    let rows = try shared.archive.database.fetchAll(
      "SELECT latest_saved_ms - first_saved_ms, span_class FROM draft WHERE latest_saved_ms IS NOT NULL"
    ) { ($0.int64(0), $0.int(1)) }
    #expect(rows.count == shared.models.count)
    var classes: Set<Int> = []
    for (span, spanClass) in rows {
      let limits = DraftSearchSQL.spanLimits
      #expect(spanClass == 0 || span >= limits[spanClass - 1]!, "span \(span) in class \(spanClass)")
      #expect(limits[spanClass].map { span < $0 } ?? true, "span \(span) in class \(spanClass)")
      classes.insert(spanClass)
    }
    #expect(classes.count > 10)
  }

  @Test func everyNameShapeMatchesTheReference() throws {
    let shared = try Self.shared()
    var maker = QueryMaker(random: SeededRandom(seed: 11), models: shared.models)
    for _ in 0..<400 {
      let expression = SearchExpression.term(.name(.contains(maker.nameText())))
      let found = try shared.archive.drafts(matching: DraftQuery(expression)).map(\.name)
      #expect(found == shared.reference.expected(expression, sort: .newest, limit: nil), "\(expression)")
    }
  }

  @Test func countsMatchTheReferenceUpToTheCap() throws {
    let shared = try Self.shared()
    let every = shared.reference.expected(.all, sort: .newest, limit: nil).count
    #expect(try shared.archive.draftCount(upTo: 100_000) == every)
    #expect(try shared.archive.draftCount(upTo: 100) == 101)
    let cat = SearchExpression.term(.name(.contains("cat")))
    let cats = shared.reference.expected(cat, sort: .newest, limit: nil).count
    #expect(try shared.archive.draftCount(matching: DraftQuery(cat), upTo: 100_000) == cats)
    #expect(try shared.archive.draftCount(matching: DraftQuery(cat), upTo: cats - 2) == cats - 1)
  }

  @Test func listFlagsMatchTheReference() throws {
    let shared = try Self.shared()
    let now = Date(timeIntervalSince1970: Double(Self.now) / 1000)
    for (name, since, until, on) in [
      ("cat", "2025-10-01", "2025-10-31", nil), (nil, "2024", nil, nil), ("猫", nil, "2023-06", nil),
      (nil, nil, nil, "yesterday"), ("e", "3w", nil, nil), (nil, "2022-02-01", "2022-02-01", nil),
    ] as [(String?, String?, String?, String?)] {
      let query = try DraftQuery(name: name, since: since, until: until, on: on, now: now, timeZone: Self.timeZone)
      let found = try shared.archive.drafts(matching: query).map(\.name)
      #expect(found == shared.reference.expected(query.expression, sort: .newest, limit: nil))
      // --since and --until are one period: a version saved inside it.
      if let since, let until {
        let lower = try DateExpression.parse(since, now: now, timeZone: Self.timeZone).start
        let upper = try DateExpression.parse(until, now: now, timeZone: Self.timeZone).end
        for draft in shared.models where found.contains(draft.name) {
          #expect(draft.versions.contains { $0.saved >= lower && $0.saved < upper })
        }
      }
    }
  }

  @Test func namesAreFoldedForEveryScript() throws {
    let folder = try TemporaryFolder("fold")
    let archive = try Archive(path: folder.path("a.sqlite"))
    let db = archive.database
    for (index, name) in ["Café", "Cafe\u{301} noir", "STRASSE", "Ёлка", "ΆΣΤΡΟ", "猫の絵", "ﬁle", "Plan-B", "b"]
      .enumerated()
    {
      let id = try VersionRecords.draftID(named: name, createdMilliseconds: 0, in: db).id
      try db.execute(
        "UPDATE draft SET version_count = 1, latest_saved_ms = ?, first_saved_ms = ? WHERE id = ?", [index, index, id])
    }
    func names(_ query: String) throws -> Set<String> { Set(try archive.search(query).map(\.name)) }
    #expect(try names("cafe") == ["Café", "Cafe\u{301} noir"])
    #expect(try names("CAFÉ") == ["Café", "Cafe\u{301} noir"])
    #expect(try names("cafe\u{301}") == ["Café", "Cafe\u{301} noir"])
    #expect(try names("straße") == ["STRASSE"])
    #expect(try names("елка") == ["Ёлка"])
    #expect(try names("αστ") == ["ΆΣΤΡΟ"])
    #expect(try names("猫") == ["猫の絵"])
    #expect(try names("file") == ["ﬁle"])
    // An exact name is the name itself, as in every command that takes a draft's name.
    #expect(try names("name:=plan-b") == [])
    #expect(try names("name:=Plan-B") == ["Plan-B"])
    #expect(try names("name:=Cafe\u{301}") == ["Café"])
    #expect(try names("name:=plan") == [])
    #expect(try names("b") == ["b", "Plan-B"])
    // A rename keeps the folded name and the grams in step (triggers).
    try db.execute("UPDATE draft SET name = 'Crème' WHERE name = 'STRASSE'")
    #expect(try names("strasse") == [])
    #expect(try names("creme") == ["Crème"])
    try db.execute("DELETE FROM draft WHERE name = 'Crème'")
    #expect(
      try db.fetchOne("SELECT count(*) FROM name_gram WHERE draft_id NOT IN (SELECT id FROM draft)") { $0.int(0) } == 0)
    let grams = try db.fetchOne("SELECT count(*) FROM name_gram") { $0.int(0) }
    let expected = try db.fetchOne("SELECT sum(length(name_folded)) FROM draft") { $0.int(0) }
    #expect(grams == expected)
  }

  @Test func theNoFilterCaseIsTheOldList() throws {
    let shared = try Self.shared()
    let found = try shared.archive.drafts()
    #expect(found.map(\.name) == Self.sorted(shared.models, .newest).map(\.name))
    #expect(found.count == shared.models.count)
  }

  // MARK: - Plans

  static func shapes(_ models: [DraftModel]) -> [(String, DraftQuery, DraftSort, Int?)] {
    let now = Date(timeIntervalSince1970: Double(now) / 1000)
    func query(_ text: String) -> DraftQuery { try! DraftQuery(search: text, now: now, timeZone: timeZone) }
    return [
      ("name substring", query("name:portrait"), .newest, 50),
      ("name substring, no limit", query("name:sketch"), .newest, nil),
      ("one character", query("name:猫"), .newest, nil),
      ("two characters", query("name:zz"), .newest, 50),
      ("exact name", query("name:=\"Plan-B\""), .newest, nil),
      ("glob with a prefix", query("name:plan*"), .name, nil),
      ("glob without one", query("name:*tree?"), .newest, 50),
      ("date range", query("saved:2025-10"), .newest, 50),
      ("date range, no limit", query("saved:>=2025-10-03 saved:<2025-10-05"), .newest, nil),
      ("since", query("saved:>=7d"), .newest, nil),
      ("before", query("saved:<2021-02"), .oldest, nil),
      ("name and date", query("name:cat saved:>=2025-10"), .newest, 50),
      ("newest 50", DraftQuery.all, .newest, 50),
      ("by name", DraftQuery.all, .name, 50),
      ("compound", query("(name:portrait or name:study) and strokes:>100 and ink:marker"), .newest, 50),
      ("compound, imported", query("background:#1a1a1f versions:>3 imported:today"), .newest, nil),
      ("compound, imported in a past year", query("background:#1a1a1f versions:>3 imported:2025"), .newest, 50),
      ("compound, an ink outside the table", query("name:cat ink:\"com.example.brush\" strokes:<50"), .newest, 50),
      ("versions", query("versions:>5"), .versions, 20),
    ]
  }

  @Test(arguments: ["default", "scaled"]) func everyShapeUsesAnIndex(_ thresholds: String) throws {
    let shared = try Self.shared()
    let compiler = Self.compilers(shared.archive.database).first { $0.0 == thresholds }!.1
    // Statistics as a real archive would have after `ANALYZE`-free use: none; the plans
    // must not depend on them.
    for (label, query, sort, limit) in Self.shapes(shared.models) {
      let (sql, plan) = try shared.archive.explain(query, sort: sort, limit: limit, compiler: compiler)
      let fullScans = plan.filter { line in
        ["SCAN d", "SCAN draft", "SCAN v", "SCAN version", "SCAN d2", "SCAN dr", "SCAN drawing", "SCAN name_gram"]
          .contains(line.trimmingCharacters(in: .whitespaces))
      }
      #expect(fullScans.isEmpty, "\(label): \(plan)\n\(sql)")
      #expect(plan.contains { $0.contains("USING") }, "\(label): \(plan)")
      // A walk along the sort's index never sorts everything it reads (a bounded walk: its
      // own query, before its fallback's).
      let compiled = try compiler.compile(query.expression, sort: sort, limit: limit)
      if limit != nil, compiled.plan == .walk || compiled.plan == .boundedWalk {
        let own = try DraftSearchSQL.plan(of: compiled.query, in: shared.archive.database)
        #expect(!own.contains("USE TEMP B-TREE FOR ORDER BY"), "\(label): \(own)")
      }
    }
  }

  @Test(arguments: ["default", "scaled"]) func selectiveShapesSearchRatherThanWalk(_ thresholds: String) throws {
    let shared = try Self.shared()
    let compiler = Self.compilers(shared.archive.database).first { $0.0 == thresholds }!.1
    for (label, query, sort, limit) in Self.shapes(shared.models) where !label.hasPrefix("newest") && label != "by name"
    {
      let compiled = try compiler.compile(query.expression, sort: sort, limit: limit)
      let (_, plan) = try shared.archive.explain(query, sort: sort, limit: limit, compiler: compiler)
      switch compiled.plan {
      case .driver:
        #expect(plan.contains { $0.hasPrefix("SEARCH") }, "\(label): \(plan)")
      case .walk, .boundedWalk:
        // A walk when there is a limit, or when the driver lists many drafts; along the
        // sort's index. A bounded one reads it from its start in a co-routine (which stops
        // after walkLength entries), then each match's row by its id.
        if limit == nil {
          var wide = compiler
          wide.estimateCap = compiler.fallbackEstimateCap
          let driver = try wide.driver(SearchCompiler.mergingPeriods(query.expression))
          #expect(driver.map { $0.estimate >= compiler.fallbackEstimateCap } ?? true, "\(label)")
        }
        #expect(plan.contains { $0.contains("INDEX \(SearchCompiler.order(sort).index)") }, "\(label): \(plan)")
        if compiled.plan == .boundedWalk {
          let index = SearchCompiler.order(sort).index
          #expect(Array(plan.prefix(2)) == ["CO-ROUTINE w", "SCAN d USING INDEX \(index)"], "\(label): \(plan)")
          #expect(plan.contains("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)"), "\(label): \(plan)")
        }
      case .period:
        // Each span class is a range of draft_by_span, the rest a range of draft_by_latest.
        #expect(limit != nil, "\(label)")
        let spans = plan.filter { $0.contains("USING INDEX draft_by_span (span_class=? AND latest_saved_ms>?") }
        #expect(spans.count == DraftSearchSQL.spanLimits.count, "\(label): \(plan)")
        #expect(plan.contains { $0.contains("INDEX draft_by_latest (latest_saved_ms") }, "\(label): \(plan)")
        if SearchCompiler.savedPeriod(query.expression) == nil {
          #expect(plan.contains { $0.contains("INDEX draft_by_early_import") }, "\(label): \(plan)")
        }
      }
    }
    let exact = try SearchCompiler(database: shared.archive.database)
      .compile(try DraftQuery(search: "name:=x").expression, sort: .newest, limit: nil)
    #expect(exact.plan == .driver)
  }

  @Test func valuesReachSQLiteOnlyAsParameters() throws {
    let shared = try Self.shared()
    let hostile = "x' OR 1=1; DROP TABLE draft; --"
    let query = try DraftQuery(search: "name:\"\(hostile)\" or name:=\"\(hostile)\" or name:\"\(hostile)*\"")
    let compiled = try SearchCompiler(database: shared.archive.database).compile(
      query.expression, sort: .newest, limit: 5)
    #expect(!compiled.sql.contains("DROP"))
    #expect(!compiled.sql.contains("1=1"))
    #expect(try shared.archive.drafts(matching: query).isEmpty)
    #expect(try shared.archive.drafts(limit: 1).count == 1)
  }

  @Test func searchReportsSyntaxErrorsAsUsageErrors() throws {
    let shared = try Self.shared()
    #expect {
      _ = try shared.archive.search("name:cat and saved:>=")
    } throws: { error in
      guard case .searchSyntax(let syntax)? = error as? ArchiveError else { return false }
      return syntax.description.hasPrefix("expected a value after 'saved:>='")
        && syntax.description.hasSuffix("\n  name:cat and saved:>=\n                       ^")
    }
  }
}
