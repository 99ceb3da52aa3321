#!/usr/bin/env python3
"""The reports of the benchmark scripts, one subcommand each: it reads what they measured (their
results files, bench-work/results/NAME.tsv, and the files their runners left in their work
folders) and writes the Markdown tables that BENCHMARKS.md copies from. It runs nothing: the
scripts run the tools (scripts/lib/bench.sh, scripts/lib/bench_run.py).

  bench-report.py corpus-facts MANIFEST               one line about the generated corpus
  bench-report.py index-rounds ROUNDS LOAD0 LOAD1 TABLES   the indexing rounds' table
  bench-report.py export-runs RESULTS WORK LOAD0 LOAD1    the export section: our export against sqlite3 -A -x and tar -x
  bench-report.py bench RESULTS WORK OUT              scripts/bench's report
  bench-report.py thumbnails RESULTS OUT              scripts/bench-thumbnails' report
  bench-report.py serve RESULTS OUT                   scripts/bench-serve's report
  bench-report.py timelapse RESULTS OUT               scripts/bench-timelapse's table
  bench-report.py scale RESULTS OUT NOTE              scripts/bench-scale's table: time and peak RSS by size
"""

import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from bench_results import Results  # noqa: E402


def corpus_facts(manifest):
    rows = [line.rstrip("\n").split("\t") for line in open(manifest, encoding="utf-8")]
    sizes = sorted(int(r[3]) for r in rows)
    per_draft = collections.Counter(r[0] for r in rows)
    n = len(sizes)
    q = lambda p: sizes[min(n - 1, int(p * n))]
    kb = lambda b: f"{b / 1000:.1f} KB"
    print(f"{n} files in {len(per_draft)} drafts ({n / len(per_draft):.2f} versions per draft, "
          f"{min(per_draft.values())}–{max(per_draft.values())}); {sum(sizes) / 1e6:.1f} MB; "
          f"file sizes min {kb(sizes[0])}, p10 {kb(q(.1))}, median {kb(q(.5))}, mean {kb(sum(sizes) / n)}, "
          f"p90 {kb(q(.9))}, max {kb(sizes[-1])}")


def index_rounds(rounds, load_before, load_after, tables):
    """Line 1: CPU added (%), line 2: wall added (%), lines 3-5: the table's rows, then notes."""
    rows = [line.split("\t") for line in open(rounds) if line.strip()]

    def of(kind, column):
        return [float(r[column]) for r in rows if r[0] == kind]

    wi, ws = statistics.median(of("index", 1)), statistics.median(of("skip", 1))
    ci, cs = statistics.median(of("index", 2)), statistics.median(of("skip", 2))
    si, ss = of("index", 3)[-1], of("skip", 3)[-1]
    runs = lambda kind, column: ", ".join(f"{v:.2f}" for v in of(kind, column))
    print(f"{(ci / cs - 1) * 100:.1f}")
    print(f"{(wi / ws - 1) * 100:.1f}")
    print(f"| import with the drawing index | {wi:.2f} ({runs('index', 1)}) | {ci:.2f} ({runs('index', 2)}) | {si / 1e6:.2f} MB |")
    print(f"| import without it (`ImportOptions.indexDrawings = false`) | {ws:.2f} ({runs('skip', 1)}) | {cs:.2f} ({runs('skip', 2)}) | {ss / 1e6:.2f} MB |")
    print(f"| **indexing adds** | **{(wi / ws - 1) * 100:+.1f} %** | **{(ci / cs - 1) * 100:+.1f} %** | "
          f"{(si - ss) / 1e6:.2f} MB ({(si - ss) / si * 100:.1f} % of the archive) |")
    print(f"load average (1, 5, 15 min) {load_before} before the rounds, {load_after} after")
    # The machine's speed drifts between runs (a shared VM); the two runs of a round ran back
    # to back, so their ratio is less exposed to the drift than the ratio of two medians.
    pairs = [float(i[2]) / float(s[2]) - 1
             for i, s in zip([r for r in rows if r[0] == "index"], [r for r in rows if r[0] == "skip"])]
    print(f"CPU added within each round (its two runs back to back): median {statistics.median(pairs) * 100:+.1f} % "
          f"({', '.join(f'{p * 100:+.0f}' for p in pairs)})")
    if of("base-index", 2):
        bi, bs = statistics.median(of("base-index", 2)), statistics.median(of("base-skip", 2))
        base_pairs = [float(i[2]) / float(s[2]) - 1
                      for i, s in zip([r for r in rows if r[0] == "base-index"], [r for r in rows if r[0] == "base-skip"])]
        print(f"baseline build (BENCH_BASELINE), in the same rounds: CPU {bi:.2f} s / {bs:.2f} s, indexing adds "
              f"{(bi / bs - 1) * 100:+.1f} % (within each round: median {statistics.median(base_pairs) * 100:+.1f} %); "
              f"this build's indexed import {ci - bi:+.3f} s of CPU against the baseline's, without the index {cs - bs:+.3f} s")
    names = [line.split("|") for line in tables.splitlines() if "|" in line]
    index = [(n, int(b)) for n, b in names if n.split("_")[0] in ("drawing", "stroke", "ink") or "stroke" in n or "ink" in n]
    if index:
        print("drawing index by table and index (dbstat): " + ", ".join(f"{n} {b / 1000:.0f} KB" for n, b in index)
              + f"; {sum(b for _, b in index) / 1000:.0f} KB in all")


def export_runs(results, work, load_before, load_after):
    """Line 1: "ratio1 ratio2 peak_mib complete" (export wall / sqlite3 -A -x wall, per run; our
    peak RSS; 1 when every corpus file is in our folder byte for byte with its modification time
    to the nanosecond); then the section's table and notes. The times are RESULTS' rows, the
    folders compared those the runs left in WORK."""
    corpus = os.path.join(work, "Drafts")
    r = Results(results)

    def m(name):
        return r.number(name + ".wall"), r.number(name + ".rss") / 1024, int(r.number(name + ".status")), \
            r.number(name + ".cpu")

    def compare(folder):
        same = timed = 0
        names = sorted(os.listdir(corpus))
        for name in names:
            a, b = os.path.join(corpus, name), os.path.join(folder, name)
            if os.path.isfile(b) and open(a, "rb").read() == open(b, "rb").read():
                same += 1
                timed += os.stat(a).st_mtime_ns == os.stat(b).st_mtime_ns
        return same, timed, len(names), sorted(set(os.listdir(folder)) - set(names))

    ratios = [m(f"export-ours-{r}")[0] / m(f"export-sqlar-{r}")[0] for r in (1, 2)]
    peak = max(m("export-ours-1")[1], m("export-ours-2")[1])
    same, timed, total, extra = compare(os.path.join(work, "export-ours"))
    print(f"{ratios[0]:.3f} {ratios[1]:.3f} {peak:.1f} {int(same == timed == total)}")
    print("| every version out again | wall s (run 1, run 2) | CPU s user+sys | peak RSS MiB |")
    print("|---|---:|---:|---:|")
    for label, key in (("`inkling-archive export --all-versions`", "ours"), ("`sqlite3 X.sqlar -A -x`", "sqlar"),
                       ("`zstd -dc \\| tar -x` (of `tar \\| zstd -3 --long`)", "tar"),
                       ("`sqlite3 X.sqlar -A -x; sync` (as durable as ours)", "sqlarsync")):
        a, b = m(f"export-{key}-1"), m(f"export-{key}-2")
        bad = "" if a[2] == 0 and b[2] == 0 else f" (exit {a[2]}, {b[2]})"
        print(f"| {label}{bad} | {a[0]:.2f}, {b[0]:.2f} | {a[3]:.2f}, {b[3]:.2f} | {max(a[1], b[1]):.1f} |")
    print()
    print(f"- Ours: {same}/{total} files byte-identical, {timed} with the modification time to the nanosecond; "
          f"other files: {', '.join(extra) or 'none'}.")
    for key, label in (("sqlar", "sqlite3 -A -x"), ("tar", "tar -x")):
        s, t, n, _ = compare(os.path.join(work, f"export-{key}", "Drafts"))
        print(f"- {label}: {s}/{n} byte-identical, {t} with the modification time to the nanosecond.")
    print(f"- Export wall time / `sqlite3 -A -x`: {ratios[0]:.2f}×, {ratios[1]:.2f}×. Load average (1, 5, 15 min) "
          f"{load_before} before, {load_after} after.")


def report(results, work, results_md):
    """scripts/bench's report, as Markdown (also printed): its figures from RESULTS, and the
    sections its parts wrote into WORK (index.md, export.md, restore-latency.md, startup.md,
    devices.md)."""
    r = Results(results)
    get = lambda k, d="": r.last(k, d)
    num = r.number

    def text(name):
        path = os.path.join(work, name + ".md")
        return open(path, encoding="utf-8").read().strip() if os.path.exists(path) else ""
    na = "not available yet"
    tool_ok = get("tool.ok") == "1"
    folder, archive, sqlar, zstd, git, repacked = (
        int(get(k, "0")) for k in ("folder.bytes", "archive.bytes", "sqlar.bytes", "zstd.bytes", "git.bytes", "repacked.bytes"))
    mb = lambda b: f"{b / 1e6:,.1f} MB"
    ratio = lambda a, b: f"{a / b:.3f}×" if a and b else "–"
    mib = lambda k: num(k) / 1024
    lines = []
    w = lines.append
    w("# inkling-archive benchmark")
    w("")
    w(f"Corpus: `inkling-corpus --drafts {get('corpus.drafts')} --versions {get('corpus.versions')} --seed {get('corpus.seed')} --variety`: "
      f"{get('corpus.facts')}. Generated in {num('generate.wall'):.1f} s.")
    w("")
    w(f"Machine: {get('machine')}; {get('tools')}.")
    w("")
    w("| what | time (s) | peak RSS (MiB) | size | size vs folder | inkling-archive vs it |")
    w("|---|---:|---:|---:|---:|---:|")
    w(f"| the Drafts folder (`du -sb`) | – | – | {mb(folder)} | 1.000× | {ratio(archive, folder) if tool_ok else na} |")
    if tool_ok:
        w(f"| **inkling-archive import** | {num('import.wall'):.2f} | {mib('import.rss'):.1f} | {mb(archive)} | "
          f"{ratio(archive, folder)} | 1.000× |")
    else:
        w(f"| **inkling-archive import** | {na} | {na} | {na} | – | – |")
    if repacked:
        w(f"| inkling-archive, then `gc --repack` (level 19) | {num('repack.wall'):.2f} | {mib('repack.rss'):.1f} | "
          f"{mb(repacked)} | {ratio(repacked, folder)} | – |")
    w(f"| `sqlite3 X.sqlar -A -c` | {num('sqlar.wall'):.2f} | {mib('sqlar.rss'):.1f} | {mb(sqlar)} | {ratio(sqlar, folder)} | "
      f"{ratio(archive, sqlar) if tool_ok else na} |")
    w(f"| `tar cf - \\| zstd -19 --long` | {num('zstd.wall'):.2f} | {mib('zstd.rss'):.1f} | {mb(zstd)} | {ratio(zstd, folder)} | "
      f"{ratio(archive, zstd) if tool_ok else na} |")
    if git:
        w(f"| git add + commit + `gc --aggressive` | {num('gitcommit.wall') + num('gitgc.wall'):.2f} "
          f"({num('gitcommit.wall'):.1f} + {num('gitgc.wall'):.1f}) | {max(mib('gitcommit.rss'), mib('gitgc.rss')):.1f} | "
          f"{mb(git)} | {ratio(git, folder)} | {ratio(archive, git) if tool_ok else na} |")
    else:
        w(f"| git add + commit + `gc --aggressive` | gc stopped after {num('gitgc.wall'):.0f} s (BENCH_GIT_TIMEOUT) | – | – | – | – |")
    w("")
    latency = text("restore-latency").splitlines()
    p99 = float(latency[0]) if latency else float("nan")
    restore_all = get("restore-all.result")

    def target(name, goal, measured=na, ok=False):
        w(f"| {name} | {goal} | {measured} | {('yes' if ok else 'no') if measured != na else '–'} |")

    w("| target | goal | measured | met |")
    w("|---|---|---|---|")
    if tool_ok:
        t = num("import.wall") / num("sqlar.wall")
        target("import wall time vs `sqlite3 -A -c`", "≤ 0.5×", f"{t:.2f}×", t <= 0.5)
        target("import peak RSS", "≤ 64 MiB", f"{mib('import.rss'):.1f} MiB", mib("import.rss") <= 64)
        target("archive size vs `tar \\| zstd -19 --long`", "≤ 0.8×", f"{archive / zstd:.3f}×", archive <= 0.8 * zstd)
        if git:
            target("archive size vs git after `gc --aggressive`", "≤ 0.3×", f"{archive / git:.3f}×", archive <= 0.3 * git)
            if repacked:
                target("archive after `gc --repack` vs git after `gc --aggressive`", "≤ 0.3×", f"{repacked / git:.3f}×",
                       repacked <= 0.3 * git)
        else:
            w("| archive size vs git after `gc --aggressive` | ≤ 0.3× | gc did not finish | – |")
        target("restore one version, p99 (a fresh process each)", "≤ 10 ms",
               f"{p99:.1f} ms" if p99 == p99 else na, p99 <= 10)
        fresh = next((l for l in latency if l.startswith("open+restore")), "")
        p99_fresh = float(fresh.split("p99 ")[1].split(" ms")[0]) if "p99 " in fresh else float("nan")
        target("restore one version, p99 (in one process: open the archive, restore)", "≤ 10 ms",
               f"{p99_fresh:.2f} ms" if p99_fresh == p99_fresh else na, p99_fresh <= 10)
        parts = restore_all.split("/")
        complete = len(parts) > 1 and parts[0].strip() == parts[1].split()[0]
        target("every version restored byte-identical", "100 %", restore_all or na, complete)
        export = text("export").splitlines()
        if export:
            r1, r2, peak, complete = export[0].split()
            target("export of every version, wall time vs `sqlite3 -A -x` (two runs)", "≤ 1.0×",
                   f"{float(r1):.2f}×, {float(r2):.2f}×", max(float(r1), float(r2)) <= 1.0)
            target("export peak RSS", "≤ 64 MiB", f"{float(peak):.1f} MiB", float(peak) <= 64)
            target("every version exported byte-identical with its modification time", "100 %",
                   "yes" if complete == "1" else "no", complete == "1")
        index = text("index").splitlines()
        if index:
            slowdown = float(index[0])
            target("indexing adds to import CPU time (median of " + get("index.rounds") + ")", "≤ 15 %",
                   f"{slowdown:+.1f} % (wall {float(index[1]):+.1f} %)", slowdown <= 15)
    else:
        for name, goal in [("import wall time vs `sqlite3 -A -c`", "≤ 0.5×"), ("import peak RSS", "≤ 64 MiB"),
                           ("archive size vs `tar \\| zstd -19 --long`", "≤ 0.8×"),
                           ("archive size vs git after `gc --aggressive`", "≤ 0.3×"),
                           ("restore one version, p99", "≤ 10 ms"), ("every version restored byte-identical", "100 %")]:
            target(name, goal)
    w("")
    if tool_ok:
        status = get("import.status")
        w(f"- Import: {get('import.summary')}" + (f" Exit status {status} (see bench-work/bench/import.err)." if status != "0" else ""))
        if get("restoreall.wall"):
            w(f"- Restore of every version (`restore DRAFT --all-versions`, one process per draft, two at a time): "
              f"{restore_all}; {num('restoreall.wall'):.1f} s.")
        for line in latency[1:]:
            w(f"- Restore latency: {line}")
        index = text("index").splitlines()
        if index:
            w("")
            w(f"| run (median of {get('index.rounds')}) | wall s (each) | CPU s user+sys (each) | archive |")
            w("|---|---:|---:|---:|")
            for line in index[2:5]:
                w(line)
            w("")
            for line in index[5:]:
                w(f"- {line}")
    export = text("export").splitlines()
    if export:
        w("")
        for line in export[1:]:
            w(line)
        w("")
    w("- Times are the wall-clock seconds of one run; peak RSS is that of the largest process of the command "
      "(GNU time). The Drafts folder size is what `du -sb` reports (file contents plus directory blocks).")
    if text("startup"):
        w("")
        w("Start-up (scripts/bench-startup):")
        w("")
        w(text("startup"))
    if text("devices"):
        w("")
        w("Watch (scripts/bench-devices):")
        w("")
        w(text("devices"))
    text = "\n".join(lines) + "\n"
    open(results_md, "w", encoding="utf-8").write(text)
    print(text)


def thumbnails(results, out):
    """scripts/bench-thumbnails' report, from its results: `inkling-bench thumbnails`' figures,
    the import, ImageMagick's runs and the corpus."""
    r = Results(results)
    v = collections.defaultdict(float, {k: r.number(k) for k in r.values})
    drafts = int(v["drafts"])
    cold1 = v["cold1_rendered"] / v["cold1_seconds"]
    cold2 = v["cold2_rendered"] / v["cold2_seconds"]
    import_s = r.number("import.wall")
    im_convert = r.last("convert.wall")
    im_mogrify = r.last("mogrify.wall")
    exports = int(r.number("exports.count"))
    ok = lambda b: "yes" if b else "**no**"
    per2 = 1000 / cold2
    rows = [
        ("Corpus", f"{drafts} drafts, {r.last('corpus.files')} files (inkling-corpus --drafts {drafts} --seed {r.last('corpus.seed')})", ""),
        ("Machine", f"{r.last('machine.cores')} cores; load average {r.last('load.before')} before the in-process pass, "
                    f"{r.last('load.after')} after (other work on the machine slows every row)", ""),
        ("Import (CLI, release)", f"{import_s:.2f} s", ""),
        ("Cold thumbnails, 256 px, 1 thread", f"{cold1:.0f} /s ({1000 / cold1:.2f} ms each; {int(v['cold1_rendered'])} rendered, {int(v['cold1_shared'])} shared a row)", ""),
        ("Cold thumbnails, 256 px, 2 threads", f"{cold2:.0f} /s ({per2:.2f} ms each)", f"≥ 500/s: {ok(cold2 >= 500)}"),
        ("Cold thumbnail, CPU each", f"{1000 * v['cold1_cpu_seconds'] / max(1, v['cold1_rendered']):.2f} ms (1 thread), {1000 * v['cold2_cpu_seconds'] / max(1, v['cold2_rendered']):.2f} ms (2 threads)", ""),
        ("Cache after the pass", f"{int(v['cache_rows'])} rows, {v['cache_bytes'] / 1e6:.1f} MB ({v['cache_bytes'] / max(1, v['cache_rows']) / 1000:.1f} KB each)", ""),
        ("Cached read, `lookUpThumbnail` + `readThumbnail`", f"p50 {v['read_p50_ms']:.3f} ms, p99 {v['read_p99_ms']:.3f} ms", f"≤ 0.2 ms: {ok(v['read_p50_ms'] <= 0.2)} (p50)"),
        ("Cached read, the SELECT alone", f"p50 {v['select_p50_ms']:.3f} ms, p99 {v['select_p99_ms']:.3f} ms", ""),
        ("Eager rendering at import", f"+{v['cold2_seconds']:.2f} s on {import_s:.2f} s = +{100 * v['cold2_seconds'] / import_s:.0f} %", ""),
    ]
    if im_convert:
        per_convert = 1000 * float(im_convert) / exports
        rows.append(("ImageMagick `convert -thumbnail 256x256`, 2 at a time", f"{exports / float(im_convert):.0f} /s ({per_convert:.2f} ms each) on {exports} share images ({v['export_megapixels'] / exports:.2f} MP mean)", f"ours faster: {ok(per2 < per_convert)}"))
        if im_mogrify:
            per_mogrify = 1000 * float(im_mogrify) / exports
            rows.append(("ImageMagick `mogrify -thumbnail 256x256`, 2 processes", f"{exports / float(im_mogrify):.0f} /s ({per_mogrify:.2f} ms each)", f"ours faster: {ok(per2 < per_mogrify)}"))
    else:
        rows.append(("ImageMagick `convert -thumbnail 256x256`", "skipped: ImageMagick is not installed (apt-get install imagemagick)", ""))
    text = "## Thumbnails (scripts/bench-thumbnails)\n\n| Measure | Result | Target |\n|---|---|---|\n"
    text += "".join(f"| {a} | {b} | {c} |\n" for a, b, c in rows)
    open(out, "w").write(text)
    print(text)


def serve(results, out):
    """scripts/bench-serve's report, from its RESULTS: for each wrk run ("round R: WHAT at C",
    C connections) the load average before it, wrk's requests, seconds, p50 and p99 ms and
    errors, and the server's CPU ticks over the run; the server's peak RSS."""
    import datetime
    r = Results(results)
    rss, ticks = r.number("server.rss") / 1024, r.number("clock.ticks")
    drafts, seconds = r.last("corpus.drafts"), r.last("wrk.seconds")
    rows = {}
    for measurement in r.values:
        if not measurement.endswith(".requests"):
            continue
        base = measurement[:-len(".requests")]
        rnd, run = base.split(": ", 1)
        name, c = run.rsplit(" at ", 1)
        requests, duration = int(r.number(base + ".requests")), r.number(base + ".seconds")
        p50, p99, errors = r.number(base + ".p50"), r.number(base + ".p99"), int(r.number(base + ".errors"))
        cpu = r.number(base + ".ticks") / ticks * 1e6 / max(requests, 1)
        rows.setdefault(rnd.split()[-1], []).append(
            (name, c, r.last(base + ".load"), requests / duration, p50, p99, errors, cpu))
    yes = lambda ok: "yes" if ok else "no"
    text = [f"## serve (scripts/bench-serve), {datetime.date.today()}: {drafts} drafts, {seconds}-s wrk runs, "
            "2 wrk threads (1 at 1 connection)\n",
            "| round | what | connections | load before | requests/s | p50 ms | p99 ms | errors | server CPU µs/request | goal |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for rnd, measured in rows.items():
        nginx = next(r for r in measured if r[0] == "nginx")
        for name, c, load, rate, p50, p99, errors, cpu in measured:
            goal = ""
            if name == "thumbnails":
                goal = (f"{rate / nginx[3]:.2f}× nginx's requests/s (≥ 0.5×: {yes(rate >= 0.5 * nginx[3])}), "
                        f"{nginx[7] / cpu:.2f}× its requests per CPU second, p99 ≤ 5 ms: {yes(p99 <= 5)}")
            if name == "grid":
                goal = f"p99 ≤ 20 ms: {yes(p99 <= 20)}"
            if name == "slow":
                goal = f"with 600 slow clients: p99 ≤ 1 s: {yes(p99 <= 1000 and errors == 0)}"
            text.append(f"| {rnd} | {name} | {c} | {load} | {rate:,.0f} | {p50:.2f} | {p99:.2f} | {errors} | {cpu:.0f} | {goal} |")
    text.append(f"\nServer peak RSS (VmHWM) over all rounds: {rss:.1f} MiB (≤ 128 MiB: {yes(rss <= 128)}).")
    report_text = "\n".join(text) + "\n"
    open(out, "w").write(report_text)
    print(report_text)


def timelapse(results, out):
    """scripts/bench-timelapse's table: the medians of the rounds of ours and of the pipeline,
    the 4K run's peak RSS and the 200,000-stroke draft's run."""
    r = Results(results)
    median = lambda name: statistics.median(r.all(name))
    wall, cpu = median("ours.wall"), median("ours.cpu")
    pwall, pcpu = median("pipeline.wall"), median("pipeline.cpu")
    lines = [
        f"Draft {r.last('draft')!r}: {r.last('draft.versions')} versions, {r.last('draft.strokes')} strokes; "
        f"{len(r.all('ours.wall'))} rounds, alternating; load {r.last('load.before')} → {r.last('load.after')}. "
        f"ffprobe of ours: {r.last('ours.probe').strip()}.\n",
        "| measurement | goal | figure |",
        "|---|---|---|",
        f"| 30 s 1080p MP4 vs `--frames` PNGs + `ffmpeg -c:v libx264 -preset veryfast` | ≤ 0.5× | "
        f"**{wall / pwall:.3f}×** wall ({wall:.2f} s against {pwall:.2f} s; CPU {cpu:.2f} s against {pcpu:.2f} s); "
        f"files {r.number('ours.bytes') / 1e6:.2f} MB and {r.number('pipeline.bytes') / 1e6:.2f} MB |",
        f"| peak RSS, 1080p | – | {median('ours.rss') / 1024:.1f} MiB (the pipeline's largest process: "
        f"{max(r.all('pipeline.rss')) / 1024:.1f} MiB) |",
        f"| peak RSS, 4K (3840 × 2160) | ≤ 256 MiB | **{r.number('4k.rss') / 1024:.1f} MiB** ({r.number('4k.wall'):.2f} s wall) |",
        f"| 30 s 1080p MP4 of 200,000 strokes | bounded | {r.number('big.wall'):.2f} s wall, {r.number('big.cpu'):.2f} s CPU, "
        f"peak RSS {r.number('big.rss') / 1024:.1f} MiB |",
    ]
    open(out, "w", encoding="utf-8").write("\n".join(lines) + "\n")


def scale(results, out, note):
    """scripts/bench-scale's table from its RESULTS (for each "SIZE drafts: COMMAND", its wall,
    cpu, rss, status and load): one row per command, for each size its peak RSS and its CPU
    and wall time, and the largest size's peak RSS over the smallest's (the goal: at most 1.3)."""
    r = Results(results)
    rows = collections.OrderedDict()
    loads = collections.defaultdict(list)
    for measurement in r.values:
        if not measurement.endswith(".wall"):
            continue
        base = measurement[:-len(".wall")]
        size, command = base.split(" drafts: ", 1)
        # The serve row names its request count, which differs by size.
        key = command.split(" (")[0] if command.startswith("serve") else command
        rows.setdefault(key, {})[int(size)] = (r.number(base + ".wall"), r.number(base + ".cpu"),
                                               int(r.number(base + ".rss")), r.last(base + ".status"), command)
        loads[int(size)].append(r.number(base + ".load"))
    sizes = sorted(loads)
    mib = lambda kib: f"{kib / 1024:.1f}"
    header = "| command | " + " | ".join(f"{n:,} drafts: peak RSS MiB, CPU s (wall s)" for n in sizes)
    header += f" | RSS {sizes[-1]:,} / {sizes[0]:,} |" if len(sizes) > 1 else " |"
    lines = [header, "|---" * (len(sizes) + 1 + (len(sizes) > 1)) + "|"]
    for key, by_size in rows.items():
        cells = []
        for n in sizes:
            if n not in by_size:
                cells.append("–")
                continue
            wall, cpu, rss, status, command = by_size[n]
            failed = "" if status == "0" else f" **exit {status}**"
            requests = command[len(key):].strip() if key != command else ""
            cells.append(f"{mib(rss)}, {cpu:.2f} ({wall:.2f}){' ' + requests if requests else ''}{failed}")
        row = f"| {key} | " + " | ".join(cells)
        if len(sizes) > 1:
            small, large = by_size.get(sizes[0]), by_size.get(sizes[-1])
            row += f" | {large[2] / small[2]:.2f}× |" if small and large and small[2] else " | – |"
        else:
            row += " |"
        lines.append(row)
    load_note = ", ".join(f"{n:,}: {min(loads[n]):.1f}–{max(loads[n]):.1f}" for n in sizes)
    text = "\n".join(lines) + f"\n\n{note}. Load average while each size ran (a shared machine: wall time moves with it, peak RSS does not): {load_note}.\n"
    open(out, "w").write(text)


COMMANDS = {
    "corpus-facts": corpus_facts, "index-rounds": index_rounds, "export-runs": export_runs, "bench": report,
    "thumbnails": thumbnails, "serve": serve, "timelapse": timelapse, "scale": scale,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
