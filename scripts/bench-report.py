#!/usr/bin/env python3
"""The arithmetic and the reports of the benchmark scripts, one subcommand each.

scripts/bench and scripts/bench-thumbnails run the tools and collect raw figures; this script
times commands (getrusage), summarises the corpus, computes medians, ratios and percentiles,
checks restored files and writes the Markdown reports that BENCHMARKS.md copies from.

  bench-report.py measure RESULT OUT ERR CMD...       time CMD: "wall peak_kib status cpu" in RESULT
  bench-report.py corpus-facts MANIFEST               one line about the generated corpus
  bench-report.py index-rounds ROUNDS LOAD0 LOAD1 TABLES   the indexing rounds' table
  bench-report.py draft-names LIST_JSON OUT           the names of `list --json`, NUL-separated
  bench-report.py compare-restored SOURCE RESTORED    byte-identity of restored files
  bench-report.py restore-latency TOOL ARCHIVE LIST_JSON CORPUS WORK SAMPLES SEED SQLAR
  bench-report.py export-runs WORK LOAD0 LOAD1         the export section: our export against sqlite3 -A -x and tar -x
  bench-report.py report RESULTS_MD                   scripts/bench's report, from B_* variables
  bench-report.py thumbnails OUT RESULTS              scripts/bench-thumbnails' report, from T_* variables
  bench-report.py elapsed START                       seconds since START (a `date +%s.%N`)
  bench-report.py serve-warm URL WORK                 every thumbnail of a `serve` once, as files for nginx
  bench-report.py serve RESULTS RSS_KIB DRAFTS SECONDS TICKS OUT   scripts/bench-serve's report
  bench-report.py devices TOOL WORK SAMPLES IDLE      scripts/bench-devices: watch and merge
  bench-report.py scale RESULTS OUT NOTE              scripts/bench-scale's table: time and peak RSS by size
"""

import collections
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time


def measure(result, out, err, *command):
    """Runs COMMAND; writes wall seconds, peak RSS (KiB, the largest process of the command
    and its children), exit status and CPU seconds (user + sys) to RESULT. Never fails: the
    status is a result."""
    with open(out, "wb") as o, open(err, "wb") as e:
        start = time.perf_counter()
        status = subprocess.call(list(command), stdout=o, stderr=e)
        wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    open(result, "w").write(f"{wall:.3f} {peak} {status} {cpu:.3f}\n")


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


def draft_names(list_json, out_path):
    drafts = json.load(open(list_json, encoding="utf-8"))["drafts"]
    with open(out_path, "wb") as out:
        for d in drafts:
            out.write(d["name"].encode("utf-8") + b"\0")


def compare_restored(source, restored):
    source, restored = os.fsencode(source), os.fsencode(restored)
    names = sorted(os.listdir(source))
    same = different = missing = same_mtime = 0
    for name in names:
        a, b = os.path.join(source, name), os.path.join(restored, name)
        if not os.path.exists(b):
            missing += 1
            continue
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() == fb.read():
                same += 1
                same_mtime += int(os.stat(a).st_mtime_ns == os.stat(b).st_mtime_ns)
            else:
                different += 1
    extra = len(set(os.listdir(restored)) - set(names))
    pct = 100 * same / len(names) if names else 0
    print(f"{same}/{len(names)} byte-identical ({pct:.2f} %); {different} differ, {missing} missing, "
          f"{extra} unexpected; {same_mtime} with the original modification time")


def export_runs(work, load_before, load_after):
    """Line 1: "ratio1 ratio2 peak_mib complete" (export wall / sqlite3 -A -x wall, per run; our
    peak RSS; 1 when every corpus file is in our folder byte for byte with its modification time
    to the nanosecond); then the section's table and notes."""
    corpus = os.path.join(work, "Drafts")

    def m(name):
        wall, peak, status, cpu = open(os.path.join(work, "measure-" + name)).read().split()
        return float(wall), int(peak) / 1024, int(status), float(cpu)

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


def quantiles(values):
    values = sorted(values)
    q = lambda p: values[min(len(values) - 1, int(p * len(values)))] * 1000
    return f"p50 {q(.5):.1f} ms, p99 {q(.99):.1f} ms, max {values[-1] * 1000:.1f} ms"


def restore_latency(tool, archive, list_json, corpus, work, samples, seed, sqlar):
    """Line 1: p99 ms of restoring one version in a fresh process; then the notes."""
    drafts = json.load(open(list_json, encoding="utf-8"))["drafts"]
    rng = random.Random(int(seed))
    every = [(d["name"], v) for d in drafts for v in range(1, d["versions"] + 1)]
    picks = rng.sample(every, min(int(samples), len(every)))
    longest = sorted(drafts, key=lambda d: (-d["versions"], d["name"]))[:10]
    picks += [(d["name"], 1) for d in longest]
    out = os.path.join(work, "one.inkling")

    def run(command):
        start = time.perf_counter()
        status = subprocess.call(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - start, status

    history = {}

    def source_file(name, version):
        if name not in history:
            text = subprocess.run([tool, "--archive", archive, "--json", "history", name], capture_output=True).stdout
            history[name] = {v["number"]: v["fileName"] for v in json.loads(text)["versions"]}
        return os.path.join(corpus, history[name][version])

    times, wrong = [], 0
    for name, version in picks:
        if os.path.exists(out):
            os.remove(out)
        seconds, status = run([tool, "--archive", archive, "--quiet", "restore", name, "--version", str(version), "-o", out])
        if status != 0:
            continue
        times.append(seconds)
        with open(out, "rb") as a, open(source_file(name, version), "rb") as b:
            wrong += int(a.read() != b.read())

    startup = [run([tool, "--version"])[0] for _ in range(30)]
    extract = os.path.join(work, "sqlar-x")
    os.makedirs(extract, exist_ok=True)
    names = sorted(os.listdir(corpus))
    base = [run(["sqlite3", sqlar, "-A", "-x", "-C", extract, "Drafts/" + name])[0]
            for name in rng.sample(names, min(50, len(names)))]
    p99 = sorted(times)[min(len(times) - 1, int(.99 * len(times)))] * 1000 if times else float("nan")
    print(f"{p99:.1f}")
    print(f"{len(times)} restores ({len(picks) - len(times)} failed, {wrong} not byte-identical): {quantiles(times)}"
          if times else "no restore succeeded")
    print(f"process start alone (`inkling-archive --version`): {quantiles(startup)}; "
          f"a trivial process (`true`): {quantiles([run(['true'])[0] for _ in range(30)])}")
    print(f"`sqlite3 X.sqlar -A -x` of one file: {quantiles(base)}")


def report(results_md):
    """scripts/bench's report: the B_* variables it exports, as Markdown (also printed)."""
    e = os.environ
    get = lambda k, d="": e.get("B_" + k, d)
    num = lambda k: float(get(k, "nan"))
    na = "not available yet"
    tool_ok = get("TOOL_OK") == "1"
    folder, archive, sqlar, zstd, git, repacked = (
        int(get(k, "0")) for k in ("FOLDER", "ARCHIVE", "SQLAR", "ZSTD", "GIT", "REPACKED"))
    mb = lambda b: f"{b / 1e6:,.1f} MB"
    ratio = lambda a, b: f"{a / b:.3f}×" if a and b else "–"
    mib = lambda k: num(k) / 1024
    lines = []
    w = lines.append
    w("# inkling-archive benchmark")
    w("")
    w(f"Corpus: `inkling-corpus --drafts {get('DRAFTS')} --versions {get('VERSIONS')} --seed {get('SEED')} --variety`: "
      f"{get('FACTS')}. Generated in {num('generate_WALL'):.1f} s.")
    w("")
    w(f"Machine: {get('MACHINE')}; {get('TOOLS')}.")
    w("")
    w("| what | time (s) | peak RSS (MiB) | size | size vs folder | inkling-archive vs it |")
    w("|---|---:|---:|---:|---:|---:|")
    w(f"| the Drafts folder (`du -sb`) | – | – | {mb(folder)} | 1.000× | {ratio(archive, folder) if tool_ok else na} |")
    if tool_ok:
        w(f"| **inkling-archive import** | {num('import_WALL'):.2f} | {mib('import_RSS'):.1f} | {mb(archive)} | "
          f"{ratio(archive, folder)} | 1.000× |")
    else:
        w(f"| **inkling-archive import** | {na} | {na} | {na} | – | – |")
    if repacked:
        w(f"| inkling-archive, then `gc --repack` (level 19) | {num('repack_WALL'):.2f} | {mib('repack_RSS'):.1f} | "
          f"{mb(repacked)} | {ratio(repacked, folder)} | – |")
    w(f"| `sqlite3 X.sqlar -A -c` | {num('sqlar_WALL'):.2f} | {mib('sqlar_RSS'):.1f} | {mb(sqlar)} | {ratio(sqlar, folder)} | "
      f"{ratio(archive, sqlar) if tool_ok else na} |")
    w(f"| `tar cf - \\| zstd -19 --long` | {num('zstd_WALL'):.2f} | {mib('zstd_RSS'):.1f} | {mb(zstd)} | {ratio(zstd, folder)} | "
      f"{ratio(archive, zstd) if tool_ok else na} |")
    if git:
        w(f"| git add + commit + `gc --aggressive` | {num('gitcommit_WALL') + num('gitgc_WALL'):.2f} "
          f"({num('gitcommit_WALL'):.1f} + {num('gitgc_WALL'):.1f}) | {max(mib('gitcommit_RSS'), mib('gitgc_RSS')):.1f} | "
          f"{mb(git)} | {ratio(git, folder)} | {ratio(archive, git) if tool_ok else na} |")
    else:
        w(f"| git add + commit + `gc --aggressive` | gc stopped after {num('gitgc_WALL'):.0f} s (BENCH_GIT_TIMEOUT) | – | – | – | – |")
    w("")
    latency = get("RESTORE_LATENCY").splitlines()
    p99 = float(latency[0]) if latency else float("nan")
    restore_all = get("RESTORE_ALL")

    def target(name, goal, measured=na, ok=False):
        w(f"| {name} | {goal} | {measured} | {('yes' if ok else 'no') if measured != na else '–'} |")

    w("| target | goal | measured | met |")
    w("|---|---|---|---|")
    if tool_ok:
        t = num("import_WALL") / num("sqlar_WALL")
        target("import wall time vs `sqlite3 -A -c`", "≤ 0.5×", f"{t:.2f}×", t <= 0.5)
        target("import peak RSS", "≤ 64 MiB", f"{mib('import_RSS'):.1f} MiB", mib("import_RSS") <= 64)
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
        export = get("EXPORT_REPORT").splitlines()
        if export:
            r1, r2, peak, complete = export[0].split()
            target("export of every version, wall time vs `sqlite3 -A -x` (two runs)", "≤ 1.0×",
                   f"{float(r1):.2f}×, {float(r2):.2f}×", max(float(r1), float(r2)) <= 1.0)
            target("export peak RSS", "≤ 64 MiB", f"{float(peak):.1f} MiB", float(peak) <= 64)
            target("every version exported byte-identical with its modification time", "100 %",
                   "yes" if complete == "1" else "no", complete == "1")
        index = get("INDEX_REPORT").splitlines()
        if index:
            slowdown = float(index[0])
            target("indexing adds to import CPU time (median of " + get("ROUNDS") + ")", "≤ 15 %",
                   f"{slowdown:+.1f} % (wall {float(index[1]):+.1f} %)", slowdown <= 15)
    else:
        for name, goal in [("import wall time vs `sqlite3 -A -c`", "≤ 0.5×"), ("import peak RSS", "≤ 64 MiB"),
                           ("archive size vs `tar \\| zstd -19 --long`", "≤ 0.8×"),
                           ("archive size vs git after `gc --aggressive`", "≤ 0.3×"),
                           ("restore one version, p99", "≤ 10 ms"), ("every version restored byte-identical", "100 %")]:
            target(name, goal)
    w("")
    if tool_ok:
        status = get("import_STATUS")
        w(f"- Import: {get('IMPORT_SUMMARY')}" + (f" Exit status {status} (see bench-work/import.err)." if status != "0" else ""))
        if get("restoreall_WALL"):
            w(f"- Restore of every version (`restore DRAFT --all-versions`, one process per draft, two at a time): "
              f"{restore_all}; {num('restoreall_WALL'):.1f} s.")
        for line in latency[1:]:
            w(f"- Restore latency: {line}")
        index = get("INDEX_REPORT").splitlines()
        if index:
            w("")
            w(f"| run (median of {get('ROUNDS')}) | wall s (each) | CPU s user+sys (each) | archive |")
            w("|---|---:|---:|---:|")
            for line in index[2:5]:
                w(line)
            w("")
            for line in index[5:]:
                w(f"- {line}")
    export = get("EXPORT_REPORT").splitlines()
    if export:
        w("")
        for line in export[1:]:
            w(line)
        w("")
    w("- Times are the wall-clock seconds of one run; peak RSS is that of the largest process of the command "
      "(getrusage). The Drafts folder size is what `du -sb` reports (file contents plus directory blocks).")
    if get("STARTUP"):
        w("")
        w("Start-up (scripts/bench-startup):")
        w("")
        w(get("STARTUP"))
    if get("DEVICES"):
        w("")
        w("Watch and merge (scripts/bench-devices):")
        w("")
        w(get("DEVICES"))
    text = "\n".join(lines) + "\n"
    open(results_md, "w", encoding="utf-8").write(text)
    print(text)


def thumbnails(out, results):
    """scripts/bench-thumbnails' report: `inkling-bench thumbnails` results and the T_* variables."""
    e = os.environ
    v = {}
    for line in open(results):
        k, x = line.split()
        v[k] = float(x)
    drafts = int(v["drafts"])
    cold1 = v["cold1_rendered"] / v["cold1_seconds"]
    cold2 = v["cold2_rendered"] / v["cold2_seconds"]
    import_s = float(e["T_IMPORT_SECONDS"])
    im_convert = e.get("T_IM_CONVERT", "")
    im_mogrify = e.get("T_IM_MOGRIFY", "")
    exports = int(e["T_EXPORTS"])
    ok = lambda b: "yes" if b else "**no**"
    per2 = 1000 / cold2
    rows = [
        ("Corpus", f"{drafts} drafts, {e['T_FILES']} files (inkling-corpus --drafts {drafts} --seed {e['T_SEED']})", ""),
        ("Machine", f"{e['T_CORES']} cores; load average {e['T_LOAD_BEFORE']} before the in-process pass, "
                    f"{e['T_LOAD_AFTER']} after (other work on the machine slows every row)", ""),
        ("Import (CLI, release)", f"{import_s:.2f} s", ""),
        ("Cold thumbnails, 256 px, 1 thread", f"{cold1:.0f} /s ({1000 / cold1:.2f} ms each; {int(v['cold1_rendered'])} rendered, {int(v['cold1_shared'])} shared a row)", ""),
        ("Cold thumbnails, 256 px, 2 threads", f"{cold2:.0f} /s ({per2:.2f} ms each)", f"≥ 500/s: {ok(cold2 >= 500)}"),
        ("Cold thumbnail, CPU each", f"{1000 * v['cold1_cpu_seconds'] / max(1, v['cold1_rendered']):.2f} ms (1 thread), {1000 * v['cold2_cpu_seconds'] / max(1, v['cold2_rendered']):.2f} ms (2 threads)", ""),
        ("Cache after the pass", f"{int(v['cache_rows'])} rows, {v['cache_bytes'] / 1e6:.1f} MB ({v['cache_bytes'] / max(1, v['cache_rows']) / 1000:.1f} KB each)", ""),
        ("Cached read, `Archive.thumbnail(draft:)`", f"p50 {v['read_p50_ms']:.3f} ms, p99 {v['read_p99_ms']:.3f} ms", f"≤ 0.2 ms: {ok(v['read_p50_ms'] <= 0.2)} (p50)"),
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


def serve_warm(url, work):
    """Fetches every draft's thumbnail from a running `serve` at URL once (rendering and caching
    it), writes each as WORK/thumbs/ID-256.png for nginx, the two lists of paths (ours and
    nginx's) for wrk, and the page of the draft with the most versions. The server's token is
    $SERVE_TOKEN."""
    import urllib.request
    url = url.rstrip("/")
    authorization = {"Authorization": "Bearer " + os.environ["SERVE_TOKEN"]}
    fetch = lambda path: urllib.request.urlopen(urllib.request.Request(url + path, headers=authorization))
    paths, files, drafts = [], [], []
    next_page = "/api/drafts?limit=500"
    while next_page:
        page = json.load(fetch(next_page))
        for draft in page["drafts"]:
            drafts.append((draft["versions"], draft["url"]))
            path = draft["thumbnail"]
            name = path.split("/")[2] + "-256.png"
            with open(f"{work}/thumbs/{name}", "wb") as f:
                f.write(fetch(path).read())
            paths.append(path)
            files.append("/" + name)
        next_page = page["next"]
    open(f"{work}/paths-serve.txt", "w").write("\n".join(paths) + "\n")
    open(f"{work}/paths-nginx.txt", "w").write("\n".join(files) + "\n")
    open(f"{work}/timeline.txt", "w").write(max(drafts)[1] + "\n")
    print(f"{len(paths)} thumbnails", file=sys.stderr)


def serve(results, rss_kib, drafts, seconds, ticks, out):
    """scripts/bench-serve's report. Each line of RESULTS: round, what, connections, the load
    averages, then wrk's RESULT (requests, seconds, p50 ms, p99 ms, errors) and the server's
    CPU ticks over the run."""
    import datetime
    rss, ticks = int(rss_kib) / 1024, int(ticks)
    rows = {}
    for l in (line.split() for line in open(results) if line.strip()):
        rnd, name, c, load = l[0], l[1], l[2], l[3]
        requests, duration, p50, p99, errors = int(l[7]), float(l[8]), float(l[9]), float(l[10]), int(l[11])
        cpu = int(l[12]) / ticks * 1e6 / max(requests, 1)
        rows.setdefault(rnd, []).append((name, c, load, requests / duration, p50, p99, errors, cpu))
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


def slow_clients(port, seconds, count):
    """Holds COUNT slow connections to a server on 127.0.0.1:PORT for SECONDS, as a slowloris
    attack does: each sends a request line, then one header line every 5 s and never ends its
    head. They come from 127.0.0.2 upwards, 60 an address, so that the per-address limit alone
    cannot stop them. Prints how many connected and how many the server had cut at the end."""
    import socket
    port, seconds, count = int(port), float(seconds), int(count)
    sockets = []
    for index in range(count):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind((f"127.0.{2 + index // 60 // 250}.{2 + index // 60 % 250}", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            sockets.append(s)
        except OSError:
            s.close()
    connected = len(sockets)
    end = time.time() + seconds
    while time.time() < end:
        time.sleep(min(5, max(0, end - time.time())))
        for s in sockets:
            try:
                s.sendall(b"X-Slow: 1\r\n")
            except OSError:
                pass
    cut = 0
    for s in sockets:
        try:
            s.settimeout(0.01)
            if s.recv(1) == b"":
                cut += 1
        except socket.timeout:
            pass
        except OSError:
            cut += 1
        s.close()
    print(f"slow clients: {connected} of {count} connected, {cut} cut by the server after {seconds:.0f} s",
          file=sys.stderr)


def elapsed(start):
    print(f"{time.time() - float(start):.3f}")


def devices(bin, work, samples, idle):
    """scripts/bench-devices: watch latency, bursts and idle wake-ups, and merging three
    archives against importing the folder afresh, compared version by version. Runs the tool
    BIN in WORK (which holds Drafts/ and manifest.tsv) and writes WORK/devices.md."""

    samples, idle = int(samples), int(idle)
    drafts = os.path.join(work, "Drafts")
    rows = []  # Markdown rows
    notes = []

    def load():
        return open("/proc/loadavg").read().split()[0]

    def run(*args, **kw):
        return subprocess.run([bin, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False, **kw)

    def timed(*args):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = run(*args)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if result.returncode != 0:
            sys.exit(f"{' '.join(args)} failed: {result.stderr.decode()[-2000:]}")
        return wall, cpu

    def fresh(path):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)

    # MARK: - Split the corpus into three devices, by draft.
    files = [line.rstrip("\n").split("\t") for line in open(os.path.join(work, "manifest.tsv"), encoding="utf-8")]
    parts = [os.path.join(work, f"device-{i}") for i in range(3)]
    for part in parts:
        os.makedirs(part)
    for draft, name, *_ in files:
        index = int(hashlib.sha256(draft.encode()).hexdigest(), 16) % 3
        os.link(os.path.join(drafts, name), os.path.join(parts[index], name))
    archives = [os.path.join(work, f"device-{i}.sqlite") for i in range(3)]
    for part, archive in zip(parts, archives):
        timed("--archive", archive, "--quiet", "import", part)

    # MARK: - Merge against a fresh import, twice each, alternating.
    merged, single = os.path.join(work, "merged.sqlite"), os.path.join(work, "single.sqlite")
    merge_runs, import_runs = [], []
    for round in range(2):
        fresh(single)
        l = load()
        import_runs.append((*timed("--archive", single, "--quiet", "import", drafts), l))
        fresh(merged)
        l = load()
        merge_runs.append((*timed("--archive", merged, "--quiet", "import", *archives), l))
    for (iw, ic, il), (mw, mc, ml) in zip(import_runs, merge_runs):
        rows.append(f"| merge of 3 archives ({len(files):,} files) vs import of the folder | "
                    f"{mw:.2f} s wall, {mc:.2f} s CPU (load {ml}) | {iw:.2f} s wall, {ic:.2f} s CPU (load {il}) | "
                    f"{mw / iw:.2f}× wall, {mc / ic:.2f}× CPU |")

    # Version by version: the merged archive against the single import.
    query = """SELECT d.name, v.saved_ms, v.saved_source, v.file_name, hex(v.file_sha256), v.file_size, v.file_mtime_ns,
      hex(b.sha256), v.background_r, v.background_g, v.background_b, v.background_a,
      dr.status, dr.stroke_count, dr.hidden_count, dr.point_count, hex(dr.content_hash), dr.bounds_x, dr.bounds_y,
      dr.bounds_width, dr.bounds_height
      FROM version v JOIN draft d ON d.id = v.draft_id JOIN blob b ON b.id = v.blob_id
      LEFT JOIN drawing dr ON dr.blob_id = b.id ORDER BY 1, 2, 5"""
    def versions(path):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute(query).fetchall()
        finally:
            db.close()
    a, b = versions(merged), versions(single)
    same = sum(1 for x, y in zip(a, b) if x == y)
    check = run("--archive", merged, "check", "--full")
    def size(path):
        return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))
    rows.append(f"| merged vs single import, version by version | {same:,} of {len(a):,} versions equal "
                f"({len(b):,} in the single import); `check --full` {'passes' if check.returncode == 0 else 'FAILS'} | "
                f"{size(merged) / 1e6:.1f} MB merged, {size(single) / 1e6:.1f} MB single | |")

    # MARK: - Watch.
    watched = os.path.join(work, "Watched")
    staging = os.path.join(work, "staging")
    os.makedirs(watched)
    os.makedirs(staging)
    archive = os.path.join(work, "watch.sqlite")
    watch = subprocess.Popen([bin, "--archive", archive, "--json", "watch", watched], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    def line():
        text = watch.stdout.readline()
        if not text:
            sys.exit("the watch ended: " + watch.stderr.read().decode()[-2000:])
        return json.loads(text)
    # Its first import of the empty folder, then the latency of single files, one at a time.
    time.sleep(1)
    names = sorted(os.listdir(drafts))
    random.Random(7).shuffle(names)
    latencies = []
    l = load()
    for name in names[:samples]:
        shutil.copy2(os.path.join(drafts, name), os.path.join(staging, name))
        start = time.perf_counter()
        os.rename(os.path.join(staging, name), os.path.join(watched, name))
        got = line()
        latencies.append(time.perf_counter() - start)
        time.sleep(0.05)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    rows.append(f"| watch: rename → archived, single files ({len(latencies)}) | p50 {p(.5) * 1000:.0f} ms, "
                f"p99 {p(.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms (load {l}) | goal p99 ≤ 1 s | |")

    # A quiet spell: nothing changes; the watch must not wake.
    def proc(pid):
        status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status") if ":" in line)
        stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return int(status["voluntary_ctxt_switches"]), int(status["nonvoluntary_ctxt_switches"]), \
            (int(stat[11]) + int(stat[12])) / ticks, len(os.listdir(f"/proc/{pid}/task"))
    time.sleep(1)
    v0, n0, c0, threads = proc(watch.pid)
    time.sleep(idle)
    v1, n1, c1, _ = proc(watch.pid)
    rows.append(f"| watch: a quiet {idle} s | {v1 - v0} voluntary and {n1 - n0} involuntary context switches, "
                f"{(c1 - c0) * 1000:.0f} ms CPU, {threads} thread | goal 0 wake-ups | |")

    # A burst of 1,000 files, twice, against importing the same files into a copy of the
    # watch's archive as it was just before (the import's own throughput, in the same state).
    for round in range(2):
        batch = names[samples + 1000 * round:samples + 1000 * (round + 1)]
        if len(batch) < 1000:
            notes.append(f"round {round + 1} of the burst has {len(batch)} files (a smaller corpus)")
        if not batch:
            continue
        for name in batch:
            shutil.copy2(os.path.join(drafts, name), os.path.join(staging, name))
        target = os.path.join(work, f"burst-{round}.sqlite")
        source = sqlite3.connect(f"file:{archive}?mode=ro", uri=True)
        copy = sqlite3.connect(target)
        source.backup(copy)
        copy.close()
        source.close()
        l = load()
        start = time.perf_counter()
        for name in batch:
            os.rename(os.path.join(staging, name), os.path.join(watched, name))
        for _ in batch:
            line()
        burst = time.perf_counter() - start
        folder = os.path.join(work, f"burst-{round}")
        os.makedirs(folder)
        for name in batch:
            os.link(os.path.join(drafts, name), os.path.join(folder, name))
        l2 = load()
        iw, _ = timed("--archive", target, "--quiet", "import", folder)
        rows.append(f"| watch: a burst of {len(batch):,} files renamed in at once | {burst:.2f} s to the last line "
                    f"(load {l}) | `import` of the same files into a copy of the archive: {iw:.2f} s (load {l2}) | "
                    f"{burst / iw:.2f}× |")

    watch.send_signal(signal.SIGINT)
    watch.wait(timeout=60)
    if watch.returncode != 0:
        notes.append(f"the watch exited with {watch.returncode}: {watch.stderr.read().decode()[-500:]}")

    table = ["| measurement | result | against | ratio |", "|---|---|---|---|", *rows]
    text = "\n".join(table) + "\n" + "".join(f"\n- {n}" for n in notes) + "\n"
    open(os.path.join(work, "devices.md"), "w").write(text)
    print(text)


def scale(results, out, note):
    """scripts/bench-scale's table from its RESULTS (size, command, wall, cpu, rss_kib, status,
    load per line): one row per command, for each size its peak RSS and its CPU and wall time,
    and the largest size's peak RSS over the smallest's (the goal: at most 1.3)."""
    rows = collections.OrderedDict()
    loads = collections.defaultdict(list)
    with open(results) as f:
        next(f)
        for line in f:
            size, command, wall, cpu, rss, status, load = line.rstrip("\n").split("\t")
            # The serve row names its request count, which differs by size.
            key = command.split(" (")[0] if command.startswith("serve") else command
            rows.setdefault(key, {})[int(size)] = (float(wall), float(cpu), int(rss), status, command)
            loads[int(size)].append(float(load))
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
    "measure": measure, "corpus-facts": corpus_facts, "index-rounds": index_rounds, "draft-names": draft_names,
    "compare-restored": compare_restored, "restore-latency": restore_latency, "export-runs": export_runs,
    "report": report, "thumbnails": thumbnails, "elapsed": elapsed, "serve-warm": serve_warm, "serve": serve,
    "slow-clients": slow_clients,
    "devices": devices, "scale": scale,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
