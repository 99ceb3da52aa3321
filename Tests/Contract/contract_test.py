#!/usr/bin/python3
"""The JSON contract of `inkling-archive` (docs/schemas) against the real binary, with Debian's
python3-jsonschema (draft 2020-12), and the zip downloads of `serve` against Python's zipfile and
Info-ZIP's unzip (scripts/setup installs both).

Every command the binary's --help lists must have its schemas in COMMANDS (a new command fails
here until it has them), and every schema must be met by real output. On a generated archive
with hostile names, this runs each command with --json (and --ndjson where it streams), its
errors under --json and --ndjson, `--json --version`, and each /api/ route of `serve` with its
errors and the stroke list's pages, and validates every object printed or answered against its
schema. Each closed object must also fail its schema with a field added or one taken away, so
that a schema cannot pass by accepting anything. Then it unpacks every draft's versions.zip with
zipfile and with unzip: each entry name is one every common unzip writes as it is (no `:`,
`"<>|?*\\`, controls, invisible or direction-changing characters, trailing dots or spaces, or
Windows device names; distinct when compared as Windows compares names), and the manifest inside
maps each back to the version's exact original name, so importing the unpacked folder adds
nothing to the archive and gives a new one the original names.

    Tests/Contract/contract_test.py --bin .build/debug
    Tests/Contract/contract_test.py --validate api-version.json FILE...   (what Swift tests answer)
"""

import argparse
import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.error
import urllib.request
import zipfile

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schemas")
DEVICE_DRAWINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "pkdrawing")

# What each command prints under --json (and --ndjson): the schemas its output must meet. The
# three that print documents refuse --json with an error (status 2), which is their contract.
COMMANDS = {
    "import": ["import.json", "import-line.json"],
    "watch": ["watch-line.json"],
    "list": ["drafts.json", "draft-line.json"],
    "search": ["drafts.json", "draft-line.json", "saved-searches.json", "saved-search.json"],
    "show": ["show.json"],
    "history": ["history.json"],
    "diff": ["diff.json"],
    "restore": ["restore.json"],
    "revert": ["revert.json"],
    "export": ["export.json", "export-manifest.json"],
    "thumbnail": ["picture.json"],
    "render": ["picture.json"],
    "contact-sheet": ["contact-sheet.json"],
    "timelapse": ["timelapse.json"],
    "rename": ["rename.json"],
    "delete": ["delete.json"],
    "undelete": ["undelete.json"],
    "purge": ["purge.json"],
    "check": ["check.json"],
    "backup": ["backup.json"],
    "stats": ["stats.json"],
    "gc": ["gc.json"],
    "reindex": ["reindex.json"],
    "tag": ["tag.json"],
    "untag": ["tag.json"],
    "tags": ["tags.json"],
    "star": ["star.json"],
    "note": ["note.json"],
    "label": ["label.json"],
    "unstar": ["star.json"],
    "serve": ["serve.json", "api-drafts.json", "api-draft.json", "api-version.json", "api-trash.json"],
    "manual": [],
    "completions": [],
    "licenses": [],
}

HOSTILE = 'Pipe|"Quote"<x>?*'
BIDI = "\u202eevil\u202d gnp.exe"
DEVICE = "CON"
TWIN = "Twin"
# What no entry name of a zip may hold: Windows refuses the first (and controls), the others make
# a name show as something else.
REFUSED = re.compile(r'[:"<>|?*\\\x00-\x1f\x7f-\x9f]')
INVISIBLE = re.compile("[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
DEVICES = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} | {p + d for p in ("COM", "LPT") for d in "0123456789¹²³"}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def step(text):
    print("contract test:", text, flush=True)


class Contract:
    """The schemas, and a record of what was validated against each, for which command."""

    def __init__(self):
        self.schemas = {}
        store = {}
        for name in sorted(os.listdir(SCHEMAS)):
            if name.endswith(".json"):
                with open(os.path.join(SCHEMAS, name)) as f:
                    schema = json.load(f)
                jsonschema.Draft202012Validator.check_schema(schema)
                self.schemas[name] = schema
                store["file://" + os.path.join(os.path.abspath(SCHEMAS), name)] = schema
        self.store = store
        self.validated = {}  # schema → number of instances
        self.by_command = {}  # command → schemas met
        self.mutations = 0

    def validator(self, name):
        base = "file://" + os.path.join(os.path.abspath(SCHEMAS), name)
        resolver = jsonschema.RefResolver(base_uri=base, referrer=self.schemas[name], store=self.store)
        return jsonschema.Draft202012Validator(self.schemas[name], resolver=resolver)

    def validate(self, name, instance, command, what):
        errors = sorted(self.validator(name).iter_errors(instance), key=lambda e: list(e.path))
        if errors:
            shown = "; ".join(f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message[:300]}" for e in errors[:5])
            raise Failure(f"{what}: not valid against {name}: {shown}")
        self.validated[name] = self.validated.get(name, 0) + 1
        self.by_command.setdefault(command, set()).add(name)
        self.must_fail_when_changed(name, instance, what)

    def must_fail_when_changed(self, name, instance, what):
        """A closed object with a field added, or without a required one, fails its schema."""
        schema = self.schemas[name]
        if not isinstance(instance, dict):
            return
        validator = self.validator(name)
        added = dict(instance, unexpectedField=1)
        check(not validator.is_valid(added), f"{what}: {name} accepts an unknown field")
        required = schema.get("required") or []
        if required:
            fewer = copy.deepcopy(instance)
            fewer.pop(required[0], None)
            check(not validator.is_valid(fewer), f"{what}: {name} accepts it without {required[0]!r}")
        self.mutations += 1


class Tool:
    def __init__(self, bin_dir, archive, contract):
        self.bin = os.path.join(bin_dir, "inkling-archive")
        self.archive = archive
        self.contract = contract

    def run(self, *arguments, status=0, archive=None, env=None):
        result = subprocess.run(
            [self.bin, "--archive", archive or self.archive, *arguments], capture_output=True, timeout=600,
            env=env)
        if status is not None and result.returncode != status:
            raise Failure(
                f"{' '.join(arguments)}: exit {result.returncode}, not {status}: {result.stderr.decode()[-2000:]}")
        return result

    def json(self, command, schema, *arguments, status=0, archive=None, env=None):
        """`--json COMMAND ARGUMENTS`: exactly one object on standard output, valid against `schema`."""
        result = self.run("--json", command, *arguments, status=status, archive=archive, env=env)
        text = result.stdout.decode()
        check(text.endswith("\n") and text.count("\n") == 1, f"{command}: not one line of JSON: {text[:400]!r}")
        value = json.loads(text)
        self.contract.validate(schema, value, command, f"{command} {' '.join(arguments)}")
        return value

    def lines(self, command, schema, *arguments, status=0, options=("--ndjson",)):
        """`COMMAND OPTIONS ARGUMENTS`: one valid object per line."""
        result = self.run(command, *options, *arguments, status=status)
        values = []
        for line in result.stdout.decode().splitlines():
            value = json.loads(line)
            self.contract.validate(schema, value, command, f"{command} {' '.join(options)} {' '.join(arguments)}")
            values.append(value)
        return values

    def error(self, command, *arguments, status, options=("--json",), archive=None):
        """An error under --json or --ndjson: one object, on standard output, with the exit status."""
        front = [o for o in options if o == "--json"]
        back = [o for o in options if o != "--json"]
        result = self.run(*front, command, *back, *arguments, status=status, archive=archive)
        text = result.stdout.decode()
        check(text.count("\n") == 1, f"{command} error: not one line of JSON: {text[:400]!r}")
        value = json.loads(text)
        self.contract.validate("error.json", value, command, f"{command} {' '.join(arguments)} (error)")
        check(value["status"] == status, f"{command}: status {value['status']} in the JSON, exit {status}")
        check(result.stderr, f"{command}: the error's sentence is not on standard error too")
        return value


def help_commands(tool):
    """The commands `inkling-archive --help` lists."""
    text = tool.run("--help").stdout.decode()
    names = []
    section = False
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            section = line.lower().startswith("commands") or line.lower().endswith("commands:")
            continue
        if section:
            match = re.match(r"^  ([a-z][a-z-]*)(\s|$)", line)
            if match:
                names.append(match.group(1))
    check(names, "found no commands in --help:\n" + text)
    return names


def corpus(bin_dir, folder, *arguments):
    subprocess.run([os.path.join(bin_dir, "inkling-corpus"), *arguments, folder], check=True, capture_output=True)


def hostile_files(drafts, spare):
    """Drafts whose file names no zip entry may carry as they are, made of generated files' bytes."""
    sources = sorted(os.path.join(spare, f) for f in os.listdir(spare) if f.endswith(".inkling"))

    def put(index, name):
        shutil.copyfile(sources[index % len(sources)], os.path.join(drafts, name))

    put(0, f"{HOSTILE}-2025-11-30T10:00:00Z.inkling")
    put(1, f"{HOSTILE}-2025-11-30T11:00:00.250Z.inkling")
    put(2, f"{BIDI}-2025-11-29T10:00:00Z.inkling")
    put(3, f"{DEVICE}.inkling")
    put(4, f"{DEVICE}-2025-11-28T10:00:00Z.inkling")
    # Two saves whose names differ only where a zip cannot keep them apart (`:` and `_`).
    put(5, f"{TWIN}-2025-11-27T10:00:00Z.inkling")
    put(6, f"{TWIN}-2025-11-27T10_00_00Z.inkling")


def commands(tool, work, bin_dir):
    step("every command with --json, --ndjson, and both")
    drafts = os.path.join(work, "Drafts")
    spare = os.path.join(work, "Spare")
    corpus(bin_dir, drafts, "--drafts", "8", "--versions", "2-4", "--seed", "7")
    corpus(bin_dir, spare, "--drafts", "7", "--versions", "1", "--seed", "11")
    hostile_files(drafts, spare)
    bad = os.path.join(work, "Bad")
    corpus(bin_dir, bad, "--bad")

    tool.json("import", "import.json", drafts)
    tool.lines("import", "import-line.json", drafts)
    tool.lines("import", "import-line.json", bad, status=None)
    tool.lines("import", "import-line.json", drafts, options=("--ndjson", "--json"))
    other = os.path.join(work, "other.sqlite")
    tool.run("import", spare, archive=other)
    tool.run("delete", sorted(os.listdir(spare))[0].rsplit("-", 3)[0], archive=other, status=None)
    merged = tool.json("import", "import.json", other)
    check("merged" in merged, "a merge's summary has no `merged`")

    names = [d["name"] for d in tool.json("list", "drafts.json")["drafts"]]
    check(len(names) >= 10, f"only {len(names)} drafts")
    tool.lines("list", "draft-line.json")
    tool.lines("list", "draft-line.json", options=("--ndjson", "--json"))
    tool.lines("list", "draft-line.json", options=("--json", "--ndjson", "--sort", "name"))
    tool.json("search", "drafts.json", "versions:>=2")
    tool.json("search", "drafts.json", "name:nothing-is-called-this", status=1)
    tool.lines("search", "draft-line.json", "versions:>=2")

    name = next(n for n in names if len(tool.json("history", "history.json", n)["versions"]) >= 3)
    tool.json("show", "show.json", name)
    tool.json("show", "show.json", name, "--version", "1", "--strokes")
    tool.json("diff", "diff.json", name)
    tool.json("diff", "diff.json", name, "1", "3")
    tool.json("history", "history.json", BIDI)

    restored = os.path.join(work, "Restored")
    tool.json("restore", "restore.json", name, "--version", "1", "--to", restored)
    tool.json("restore", "restore.json", TWIN, "--all-versions", "--to", restored)
    again = tool.json("restore", "restore.json", TWIN, "--all-versions", "--to", restored)
    check(again["alreadyThere"], "restoring again lists nothing already there")
    tool.json("revert", "revert.json", name, "--version", "1")
    tool.json("revert", "revert.json", name, "--version", "1")  # the newest already is it

    exported = os.path.join(work, "Exported")
    os.makedirs(exported)
    # A file with other bytes under a name the export gives: a problem, exit 1.
    with open(os.path.join(exported, f"{TWIN}-2025-11-27T10:00:00Z.inkling"), "w") as f:
        f.write("not this")
    report = tool.json(
        "export", "export.json", "--exact", TWIN, "--all-versions", "--png", "--svg", "--pdf", "--to", exported,
        status=1)
    check(any(p["kind"] == "exists" for p in report["problems"]), "no problem reported for the file in the way")
    with open(os.path.join(exported, "inkling-export.json")) as f:
        manifest = json.load(f)
    tool.contract.validate("export-manifest.json", manifest, "export", "inkling-export.json")
    check({f["kind"] for f in manifest["files"]} == {"inkling", "png", "svg", "pdf"}, "the manifest lacks a kind")

    tool.json("thumbnail", "picture.json", name, "--size", "128", "-o", os.path.join(work, "t.png"))
    tool.json("render", "picture.json", name, "-o", os.path.join(work, "r.png"))
    tool.json("contact-sheet", "contact-sheet.json", "--name", "Twin", "--size", "128", "-o", os.path.join(work, "sheet.png"))
    tool.json("contact-sheet", "contact-sheet.json", "--name", "Twin", "--paper", "letter", "-o", os.path.join(work, "sheet.pdf"))
    tool.json("timelapse", "timelapse.json", name, "--size", "256", "-o", os.path.join(work, "t.mp4"))

    tool.json("rename", "rename.json", names[-1], "Renamed once")
    tool.json("rename", "rename.json", "Renamed once", names[-2], "--merge")
    tool.json("delete", "delete.json", names[-2], DEVICE)
    tool.json("delete", "delete.json", DEVICE)  # in the trash already
    tool.json("undelete", "undelete.json", DEVICE)
    tool.json("undelete", "undelete.json", DEVICE)  # out of it already
    tool.json("list", "drafts.json", "--trash")
    tool.json("purge", "purge.json", "--dry-run")
    tool.json("check", "check.json")
    tool.json("check", "check.json", "--full")
    tool.json("backup", "backup.json", os.path.join(work, "backup.sqlite"))
    tool.json("stats", "stats.json")
    tool.json("gc", "gc.json")
    tool.json("reindex", "reindex.json")
    tool.json("reindex", "reindex.json", "--all")

    # Tags and stars, and the drafts, versions and trash that then show them.
    tool.json("tag", "tag.json", name, "portfolio", "client:Anna")
    tool.json("tag", "tag.json", "--query", "versions:>=2", "class of 2026")
    tool.json("untag", "tag.json", name, "portfolio")
    tool.json("tags", "tags.json")
    tool.json("tags", "tags.json", "client:")
    tool.json("star", "star.json", name, "--stars", "4")
    tool.json("star", "star.json", "--query", "tag:client:", "--stars", "5")
    tool.json("unstar", "star.json", name)
    tool.json("star", "star.json", name, "--stars", "3")
    tool.lines("list", "draft-line.json", "--starred")
    tool.json("note", "note.json", name, "first \u202e note\nwith a line break")
    tool.json("note", "note.json", name, "--version", "1", "on version one")
    tool.json("note", "note.json", name, "--list")
    tool.json("note", "note.json", name, "--remove", "1")
    tool.json("note", "note.json", name, "kept")
    tool.json("label", "label.json", name, "--version", "1", "sent to <printer>")
    tool.json("label", "label.json", name, "final")
    tool.json("label", "label.json", name)
    tool.json("label", "label.json", name, "--remove", "final")
    tool.json("label", "label.json", name, "final")
    tool.json("search", "drafts.json", "tag:\"class of 2026\" and stars:>=3")
    tool.json("search", "drafts.json", "note:kept and label:final")
    tool.json("show", "show.json", name, "--version", "final")
    tool.json("diff", "diff.json", name, "1", "final")
    tool.timelapse = tool.json(
        "timelapse", "timelapse.json", name, "--size", "64", "--to", "final", "-o", os.path.join(work, "final.mp4"))
    check("sent to <printer>" in tool.timelapse["marks"][0]["labels"] and "final" in tool.timelapse["marks"][-1]["labels"],
          "a time-lapse's marks lack their versions' labels")
    # Saved searches: kept, listed, run by @NAME wherever a query goes, forgotten.
    tool.json("search", "drafts.json", "--save", "Best of Anna", "tag:client: stars:>=3")
    tool.json("search", "drafts.json", "--save", "everything", "")
    tool.json("search", "saved-searches.json", "--saved")
    tool.json("search", "drafts.json", "@best of anna")
    tool.json("list", "drafts.json", "@everything", "--starred")
    tool.json("search", "saved-search.json", "--forget", "everything")
    tool.error("search", "@everything", status=1)
    tool.json("show", "show.json", name)
    tool.json("history", "history.json", name)
    tool.json("delete", "delete.json", name)
    tool.json("list", "drafts.json", "--trash")
    tool.json("undelete", "undelete.json", name)

    step("errors under --json and --ndjson, and --json --version")
    for command in COMMANDS:
        tool.error(command, "--no-such-option", status=2)
    for document in (["manual"], ["licenses"], ["completions", "bash"]):
        tool.error(*document, status=2)
    missing = "Pipe|\"Quote\"<y>?*"
    for command, arguments in [
        ("show", [missing]), ("history", [missing]), ("diff", [missing]), ("restore", [missing, "-o", "-"]),
        ("revert", [missing, "--version", "1"]), ("thumbnail", [missing, "-o", os.path.join(work, "x.png")]),
        ("render", [missing, "-o", os.path.join(work, "x.png")]),
        ("timelapse", [missing, "-o", os.path.join(work, "x.mp4")]), ("rename", [missing, "Other"]),
    ]:
        value = tool.error(command, *arguments, status=1)
        check(value.get("suggestions"), f"{command}: no suggestions for a near name")
    # Of several names, those that are no draft's are each an error beside the drafts done.
    for command, schema, key in [("delete", "delete.json", "deleted"), ("undelete", "undelete.json", "undeleted")]:
        value = tool.json(command, schema, missing, DEVICE, status=1)
        check(len(value[key]) == 1 and value["errors"][0].get("suggestions"), f"{command}: {value}")
    syntax = tool.error("search", "name:cat and (", status=2)
    check("query" in syntax and "column" in syntax, "a syntax error without its query and column")
    tool.error("search", "name:cat and (", status=2, options=("--ndjson",))
    tool.error("list", "--since", "notadate", status=2, options=("--ndjson",))
    tool.error("import", "--max-file-size", "lots", drafts, status=2, options=("--ndjson",))
    tool.error("stats", status=3, archive=os.path.join(drafts, sorted(os.listdir(drafts))[0]))
    tool.error("diff", name, "1", "99", status=1)
    for arguments in (["--version"], ["--version", "--verbose"]):
        result = tool.run("--json", *arguments)
        value = json.loads(result.stdout)
        tool.contract.validate("version.json", value, "--version", "--json " + " ".join(arguments))
        check(("libraries" in value) == ("--verbose" in arguments), "--verbose and the libraries disagree")
    return name, drafts


def watch(tool, work, bin_dir):
    step("watch --json")
    folder = os.path.join(work, "Watched")
    os.makedirs(folder)
    process = subprocess.Popen(
        [tool.bin, "--archive", tool.archive, "--json", "watch", "--settle", "0.2", folder],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1)
        fresh = os.path.join(work, "Fresh")
        corpus(bin_dir, fresh, "--drafts", "2", "--versions", "1", "--seed", "23")
        for name in sorted(os.listdir(fresh)):
            shutil.copyfile(os.path.join(fresh, name), os.path.join(folder, name))
        line = process.stdout.readline()
        check(line, "watch printed nothing: " + (process.stderr.read1().decode() if process.poll() else ""))
        tool.contract.validate("watch-line.json", json.loads(line), "watch", "watch --json")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


class Server:
    def __init__(self, tool, work):
        self.tool = tool
        # The token is kept in STATE (as $XDG_STATE_HOME), not in the account's own.
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))
        url = tool.json("serve", "serve.json", "--print-url", env=env)["url"]
        check("token=" in url, "--print-url has no token")
        self.process = subprocess.Popen(
            [tool.bin, "--archive", tool.archive, "--json", "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        line = self.process.stdout.readline()
        check(line, "serve printed nothing")
        value = json.loads(line)
        tool.contract.validate("serve.json", value, "serve", "serve --json")
        match = re.match(r"^http://([^/]+)/\?token=(.+)$", value["url"])
        check(match, f"an address without its token: {value['url']}")
        self.base = "http://" + match.group(1)
        self.token = match.group(2)

    def get(self, path, method="GET"):
        request = urllib.request.Request(
            self.base + path, method=method, headers={"Authorization": "Bearer " + self.token})
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def api(self, path, schema, status=200):
        code, headers, body = self.get(path)
        check(code == status, f"{path}: {code}, not {status}: {body[:300]!r}")
        check(headers.get("Content-Type", "").startswith("application/json"), f"{path}: not JSON")
        value = json.loads(body)
        self.tool.contract.validate(schema, value, "serve", path)
        if schema == "error.json":
            check(value["status"] == status, f"{path}: status {value['status']} in the JSON, {status} sent")
        return value

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)


def quoted(text):
    return urllib.request.quote(text, safe="")


def api(server, name):
    step("every /api/ route, its pages and its errors")
    page = server.api("/api/drafts?limit=3", "api-drafts.json")
    pages = 1
    while page["next"]:
        page = server.api(page["next"], "api-drafts.json")
        pages += 1
    check(pages > 2, f"only {pages} pages of 3 drafts")
    server.api("/api/drafts?q=" + quoted("versions:>=2") + "&sort=name", "api-drafts.json")
    everything = server.api("/api/drafts?limit=500", "api-drafts.json")["drafts"]
    ids = {d["name"]: d["id"] for d in everything}
    for draft in (name, BIDI, HOSTILE, DEVICE, TWIN):
        value = server.api(f"/api/draft?id={ids[draft]}", "api-draft.json")
        server.api(f"/api/draft?name={quoted(draft)}&version=1", "api-version.json")
        check(value["draft"] == draft, "the API names another draft")
    # One shape of a time-lapse: the API's is `timelapse --json`'s, with the video's address
    # where the command names the file it wrote.
    served = server.api(f"/api/draft?id={ids[name]}", "api-draft.json")["timelapse"]
    written = server.tool.timelapse
    check(list(served)[1:] == list(written)[1:] and list(served["marks"][0]) == list(written["marks"][0]),
          f"the API's time-lapse {list(served)} is not the command's {list(written)}")
    server.api(f"/api/draft?id={ids[name]}&version=2&strokes=1", "api-version.json")
    # One page here (5,000 strokes a page); BoundedWorkTests validates a list of many pages.
    value = server.api(f"/api/draft?id={ids[name]}&version=2&strokes=1&strokesFrom=1", "api-version.json")
    check(value["drawing"]["strokesFrom"] == 1 and value["drawing"]["strokesNext"] is None, "a page from 1")
    trash = server.api("/api/trash", "api-trash.json")
    check(trash["drafts"], "nothing in the trash")
    trashed = trash["drafts"][0]["id"]
    value = server.api(f"/api/draft?id={trashed}", "api-draft.json")
    check("deleted" in value and "error" in value["timelapse"], "a trashed draft's API says nothing of it")
    server.api(f"/api/draft?id={trashed}&version=1", "api-version.json")

    near = server.api("/api/draft?name=" + quoted(BIDI + "x"), "error.json", status=404)
    check(near.get("suggestions") == [BIDI], f"suggestions: {near.get('suggestions')}")
    server.api("/api/draft?name=" + quoted(HOSTILE + "x"), "error.json", status=404)
    server.api(f"/api/draft?id={ids[BIDI]}&version=99", "error.json", status=404)
    server.api(f"/api/draft?id={ids[name]}&version=1&strokes=1&strokesFrom=-1", "error.json", status=400)
    syntax = server.api("/api/drafts?q=" + quoted("name:cat and ("), "error.json", status=400)
    check("column" in syntax, "an API syntax error without its column")
    server.api("/api/drafts?limit=0", "error.json", status=400)
    server.api("/api/nothing-here", "error.json", status=404)
    code, _, body = server.get("/api/drafts", method="POST")
    check(code == 405, f"POST: {code}")
    server.tool.contract.validate("error.json", json.loads(body), "serve", "POST /api/drafts")
    return ids


def safe_entry(name):
    """Why an entry name would not be unpacked as it is by every common unzip, or None."""
    if REFUSED.search(name):
        return "a character Windows refuses"
    if INVISIBLE.search(name) or any(unicodedata.category(c) in ("Cf", "Cc", "Co", "Cs", "Cn") for c in name):
        return "an invisible or direction-changing character"
    if name.endswith((".", " ")):
        return "a trailing dot or space"
    if name.split(".")[0].rstrip(" ").upper() in DEVICES:
        return "a Windows device name"
    if "/" in name or name in ("", ".", ".."):
        return "not one file's name"
    return None


def zips(tool, server, ids, work):
    step("versions.zip unpacked by zipfile and unzip, names safe, the manifest mapping them back")
    entries = 0
    for draft in (BIDI, HOSTILE, DEVICE, TWIN):
        code, _, body = server.get(f"/draft/versions.zip?id={ids[draft]}")
        check(code == 200, f"the zip of {draft!r}: {code}")
        path = os.path.join(work, f"zip-{ids[draft]}.zip")
        with open(path, "wb") as f:
            f.write(body)
        history = tool.json("history", "history.json", draft)["versions"]
        with zipfile.ZipFile(path) as z:
            check(z.testzip() is None, f"the zip of {draft!r} is damaged")
            names = z.namelist()
            manifest = json.loads(z.read("inkling-export.json"))
        tool.contract.validate("export-manifest.json", manifest, "serve", f"the manifest in the zip of {draft!r}")
        check(len(names) == len(history) + 1, f"{draft!r}: {len(names)} entries for {len(history)} versions")
        folded = [unicodedata.normalize("NFC", n).upper() for n in names]
        check(len(set(folded)) == len(folded), f"{draft!r}: entries a Windows folder cannot tell apart: {names}")
        for name in names:
            problem = safe_entry(name)
            check(problem is None, f"{draft!r}: the entry {name!r} has {problem}")
        files = manifest["files"]
        check(sorted(f["file"] for f in files) == sorted(n for n in names if n != "inkling-export.json"),
              f"{draft!r}: the manifest lists other files than the zip holds")
        originals = sorted(f["renamedFrom"] or f["file"] for f in files)
        check(originals == sorted(v["fileName"] for v in history),
              f"{draft!r}: the manifest maps back to {originals}, not {[v['fileName'] for v in history]}")
        check(any(f["renamedFrom"] for f in files), f"{draft!r}: no name needed changing")
        entries += len(names)

        out = os.path.join(work, f"unzipped-{ids[draft]}")
        result = subprocess.run(["unzip", "-q", "-o", path, "-d", out], capture_output=True)
        check(result.returncode == 0, f"unzip of {draft!r}: {result.returncode} {result.stderr.decode()}")
        written = sorted(os.fsencode(n) for n in os.listdir(os.fsencode(out)))
        check(written == sorted(n.encode() for n in names), f"unzip wrote {written}, not {names}")
        again = tool.json("import", "import.json", out)
        check(again["versionsImported"] == 0 and again["alreadyArchived"] == len(history),
              f"importing the unpacked zip of {draft!r} into its archive: {again}")
        fresh = os.path.join(work, f"fresh-{ids[draft]}.sqlite")
        tool.json("import", "import.json", out, archive=fresh)
        names_back = sorted(v["fileName"] for v in tool.json("history", "history.json", draft, archive=fresh)["versions"])
        check(names_back == sorted(v["fileName"] for v in history),
              f"a new archive from the unpacked zip of {draft!r} names its files {names_back}")
    return entries


def validate_files(contract, schema, paths):
    """Each file a JSON document valid against `schema`: for tests that make what this one cannot
    (a server with small limits)."""
    for path in paths:
        with open(path) as f:
            contract.validate(schema, json.load(f), "--validate", path)
    print(f"contract test: {len(paths)} documents valid against {schema}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", help="the folder of inkling-archive and inkling-corpus")
    parser.add_argument("--validate", metavar="SCHEMA", help="validate the FILEs against SCHEMA instead")
    parser.add_argument("files", nargs="*", metavar="FILE")
    options = parser.parse_args()
    contract = Contract()
    if options.validate:
        try:
            validate_files(contract, options.validate, options.files)
            return 0
        except Failure as failure:
            print(f"contract test: FAILED: {failure}", file=sys.stderr)
            return 1
    if not options.bin:
        parser.error("--bin or --validate")
    work = tempfile.mkdtemp(prefix="inkling-contract-")
    try:
        tool = Tool(options.bin, os.path.join(work, "archive.sqlite"), contract)
        listed = help_commands(tool)
        check(sorted(listed) == sorted(COMMANDS),
              f"--help lists {sorted(set(listed) - set(COMMANDS))} without schemas here, "
              f"and {sorted(set(COMMANDS) - set(listed))} are gone")
        name, _ = commands(tool, work, options.bin)
        watch(tool, work, options.bin)
        server = Server(tool, work)
        try:
            ids = api(server, name)
            entries = zips(tool, server, ids, work)
        finally:
            server.stop()
        for command, schemas in COMMANDS.items():
            missing = set(schemas) - contract.by_command.get(command, set())
            check(not missing, f"{command}: nothing it printed was validated against {sorted(missing)}")
            check("error.json" in contract.by_command.get(command, set()), f"{command}: no error validated")
        unused = set(contract.schemas) - set(contract.validated) - {"common.json"}
        check(not unused, f"schemas no output was validated against: {sorted(unused)}")
        total = sum(contract.validated.values())
        print(
            f"contract test: {total} JSON outputs valid against {len(contract.validated)} schemas "
            f"({len(COMMANDS)} commands, 3 API routes; {contract.mutations} changed copies refused), "
            f"{entries} zip entries safe and mapped back", flush=True)
    except Failure as failure:
        print(f"contract test: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
