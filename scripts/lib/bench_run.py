#!/usr/bin/env python3
"""The runners the benchmark scripts share that are easier in Python than in shell, one
subcommand each; they run the tools and check what they wrote. Their figures go to the
script's results file or to files in its work folder, which scripts/bench-report.py turns into
tables (scripts/lib/bench.sh times single commands: wall, CPU and peak RSS).

  bench_run.py draft-names LIST_JSON OUT           the names of `list --json`, NUL-separated
  bench_run.py compare-restored SOURCE RESTORED    byte-identity of restored files: one line
  bench_run.py restore-latency TOOL ARCHIVE LIST_JSON CORPUS WORK SAMPLES SEED SQLAR
                                                   restores of one version, a new process each
  bench_run.py serve-warm URL WORK                 every thumbnail of a `serve` once, as files for nginx
  bench_run.py slow-clients PORT SECONDS COUNT     slow connections held open against `serve`
  bench_run.py devices TOOL WORK SAMPLES IDLE RESULTS   scripts/bench-devices: the watch
"""

import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_results  # noqa: E402


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


def devices(bin, work, samples, idle, results):
    """scripts/bench-devices: watch latency, bursts and idle wake-ups. Runs the tool BIN in
    WORK (which holds Drafts/); its figures are rows of RESULTS, its table WORK/devices.md."""
    row = lambda measurement, value, unit: bench_results.append(results, "devices", measurement, value, unit)

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
    for label, value in (("p50", p(.5)), ("p99", p(.99)), ("max", latencies[-1])):
        row(f"watch latency {label}", f"{value * 1000:.1f}", "ms")
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
    row("watch idle voluntary switches", v1 - v0, "switches")
    row("watch idle CPU", f"{(c1 - c0) * 1000:.0f}", "ms")
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
        row(f"watch burst {round + 1} ({len(batch)} files)", f"{burst:.3f}", "s")
        row(f"import of burst {round + 1} ({len(batch)} files)", f"{iw:.3f}", "s")
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


COMMANDS = {
    "draft-names": draft_names, "compare-restored": compare_restored, "restore-latency": restore_latency,
    "serve-warm": serve_warm, "slow-clients": slow_clients, "devices": devices,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
