#!/usr/bin/python3
"""The web pages of `inkling-archive serve` in a real browser: headless Chromium through
chromedriver and Selenium (Debian's chromium, chromium-driver and python3-selenium; scripts/setup
installs them).

On a generated archive with a hostile name in it, this opens the grid and checks that every
thumbnail loaded (naturalWidth > 0) and that scrolling loads the next page; types a query into
the search box and sees the grid change to the query's drafts (and a syntax error's caret
message); sees a card's stars (in words too) and tags, follows a tag's link (one of a group, and
one of markup and quotes) to the grid of exactly its drafts, and finds the starred drafts with
stars:>=4 in the search box; opens a draft and sees one timeline entry per version; plays the draft's time-lapse
to its end and seeks to a save from the keyboard on the scrubber of its saves; downloads a version and compares
its bytes with the imported file; opens a version large; sees a draft whose drawing does not
decode say why it has no time-lapse; follows a version's SVG and PDF links (their types, qpdf
--check, and the SVG drawn by Chromium at the PNG's size within 30 dB of it); checks that the browser reported no error (a
Content-Security-Policy violation would be one); and then visits a server on another port of
127.0.0.1 (as another account could run): nothing it receives from the browser (cookies, a
Referer, the path), replayed to `serve`, is let in. Before that, a draft saved 200 times gets
a scrubber with a step for each save, reached by the keys on a phone; and every kind of page
goes through the web's validators (page_audit.py): axe-core at 1280 and 390 px finds nothing
serious or critical, the Nu HTML Checker no error, with the counts printed. Screenshots of the
grid, a search, a draft, its time-lapse, a version, and every audited page at both widths, go
to the artefacts folder.

    Tests/Browser/browser_test.py --bin .build/debug --artifacts .build/browser-artifacts
"""

import argparse
import base64
import http.server
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import page_audit

HOSTILE = '"><img src=x onerror=alert(1)>'
BIDI = "\u202eevil\u202d gnp.exe"  # RLO, LRO: unisolated, it reorders the text after it
HOSTILE_TAG = 'say "hi" <b>\\ client:'  # markup, quotes, a backslash, and the end of a group
DEVICE = "Device strokes"
NOISE = "Noise"  # a drawing that does not decode
LONG = "Sketchbook_" + "averyveryverylongnamewithoutanyspaces" * 4  # one word wider than a phone
MINIMUM_SIDE = 512  # VersionView.minimumSide
DEVICE_DRAWINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "pkdrawing")
PAGE_SIZE = 60  # ServerConfiguration.pageSize's default
EAGER_THUMBNAILS = 12  # GridView.eagerThumbnails
MANY_SAVES = 200  # a draft saved this often: its time-lapse's marks must still stay apart
WIDTHS = ((1280, 1000), (390, 844))  # a desktop and a phone


class Failure(Exception):
    pass


def step(text):
    print("browser test:", text, flush=True)


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(bin_dir, archive, *arguments):
    result = subprocess.run(
        [os.path.join(bin_dir, "inkling-archive"), "--archive", archive, *arguments],
        check=True, capture_output=True)
    return result.stdout


def build_archive(bin_dir, work):
    drafts = os.path.join(work, "Drafts")
    subprocess.run(
        [os.path.join(bin_dir, "inkling-corpus"), "--drafts", "90", "--versions", "1-6", "--seed", "19", drafts],
        check=True, capture_output=True)
    # A hostile name, twice saved, made of a generated file's bytes (the name is only in the file name).
    source = sorted(f for f in os.listdir(drafts) if f.endswith(".inkling"))[0]
    for hour in (10, 11):
        shutil.copyfile(os.path.join(drafts, source), os.path.join(drafts, f"{HOSTILE}-2025-11-30T{hour}:00:00Z.inkling"))
    shutil.copyfile(os.path.join(drafts, source), os.path.join(drafts, f"{BIDI}-2025-11-29T10:00:00Z.inkling"))
    for hour in (10, 11):
        shutil.copyfile(os.path.join(drafts, source), os.path.join(drafts, f"{LONG}-2025-11-27T{hour}:00:00Z.inkling"))
    # A real device drawing: three pen strokes, a share image of about 209 × 256 px.
    with open(os.path.join(DEVICE_DRAWINGS, "three-pen-strokes.pkdrawing"), "rb") as f:
        drawing = base64.b64encode(f.read()).decode()
    with open(os.path.join(drafts, f"{DEVICE}-2025-11-28T10:00:00Z.inkling"), "w") as f:
        json.dump({"drawingData": drawing, "color": {"r": 1, "g": 1, "b": 1, "a": 1}}, f)
    archive = os.path.join(work, "archive.sqlite")
    run(bin_dir, archive, "import", drafts)
    return archive, drafts


def many_saves(bin_dir, archive, work):
    """Imports one draft saved MANY_SAVES times, a stroke a save; returns its name."""
    many = os.path.join(work, "Many")
    subprocess.run(
        [os.path.join(bin_dir, "inkling-corpus"), "--drafts", "1", "--versions", f"{MANY_SAVES}-{MANY_SAVES}",
         "--strokes", "1-1", "--seed", "23", many], check=True, capture_output=True)
    run(bin_dir, archive, "import", many)
    return [d["name"] for d in json.loads(run(bin_dir, archive, "--json", "list"))["drafts"]
            if d["versions"] == MANY_SAVES][0]


def noise_folder(work):
    """A folder with one draft whose drawing is bytes PencilKit never wrote."""
    folder = os.path.join(work, "Noise")
    os.makedirs(folder)
    garbage = base64.b64encode(bytes((i * 37 + 11) % 256 for i in range(400))).decode()
    with open(os.path.join(folder, f"{NOISE}-2025-11-26T10:00:00Z.inkling"), "w") as f:
        json.dump({"drawingData": garbage, "color": {"r": 1, "g": 1, "b": 1, "a": 1}}, f)
    return folder


def start_server(bin_dir, archive, state):
    """`serve` as a person starts it; its token kept in STATE (as $XDG_STATE_HOME)."""
    process = subprocess.Popen(
        [os.path.join(bin_dir, "inkling-archive"), "--archive", archive, "--json", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, XDG_STATE_HOME=state))
    line = process.stdout.readline()
    if not line:
        raise Failure("serve printed nothing: " + process.stderr.read().decode())
    return process, json.loads(line)["url"]


class OtherPort(http.server.BaseHTTPRequestHandler):
    """Another account's server on another port of 127.0.0.1: keeps what each request carried."""
    received = []

    def do_GET(self):
        OtherPort.received.append((self.path, [(k, v) for k, v in self.headers.items()]))
        body = b"<!doctype html><title>another service</title><p>another service</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def replayed(port, path, headers):
    """The status `serve` on PORT answers to PATH with HEADERS (those another server received)."""
    kept = {k: v for k, v in headers if k.lower() not in ("host", "connection", "accept-encoding")}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=kept)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *arguments):
            return None
    try:
        return urllib.request.build_opener(NoRedirect).open(request).status
    except urllib.error.HTTPError as error:
        return error.code


def browser(downloads):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {
        "download.default_directory": downloads, "download.prompt_for_download": False,
        "safebrowsing.enabled": False,
    })
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    return driver


def wait(driver, condition, message, timeout=30):
    try:
        return WebDriverWait(driver, timeout).until(lambda d: condition(d))
    except Exception:
        raise Failure(message)


def click(driver, element):
    """Clicks `element` as a person would, once scrolled clear of the sticky search bar."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def images_loaded(driver, selector):
    """(loaded, total) of the images matching selector, once every one has finished loading.
    Images the page defers (loading="lazy") load as a reader scrolls to them: each is brought
    into view in turn, and the page is back at its top when all are done."""
    script = """
      const images = Array.from(document.querySelectorAll(arguments[0]));
      const waiting = images.find(i => !i.complete);
      if (waiting) {
        if (waiting.loading === "lazy") waiting.scrollIntoView({block: "center"});
        return null;
      }
      window.scrollTo(0, 0);
      return [images.filter(i => i.naturalWidth > 0).length, images.length];
    """
    return wait(driver, lambda d: d.execute_script(script, selector), "images still loading: " + selector)


def fetch(address, method="GET"):
    """(status, body) of a request to `serve`, whatever its status."""
    try:
        with urllib.request.urlopen(urllib.request.Request(address, method=method)) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def settled(driver):
    """Whether the page's script is done: a draft page's time-lapse has its marks (or its
    sentence instead)."""
    return driver.execute_script("""
      const section = document.getElementById("timelapse");
      return !section || !document.getElementById("timelapse-video")
        || section.dataset.marksLoaded === "true";
    """)


def audit(driver, axe, pages, artifacts):
    """axe on every page at each width, vnu on each page's HTML as served (and, for the pages
    a script changes, as the script left it). Prints the counts; returns the failures."""
    problems = []
    served = {}
    live = {}
    driver.set_script_timeout(600)  # axe on a page of 200 versions, on a busy machine
    for kind, address, method in pages:
        status, body = fetch(address, method)
        served[f"{kind} ({status})"] = body
    for width, height in WIDTHS:
        driver.set_window_size(width, height)
        for kind, address, method in pages:
            if method != "GET":
                continue
            driver.get(address)
            wait(driver, settled, f"the {kind} page's script did not finish", timeout=120)
            violations = axe.run(driver)
            bad = page_audit.failing(violations)
            others = [v for v in violations if v not in bad]
            step(f"axe at {width} px: {kind}: {len(bad)} serious or critical, {len(others)} moderate or minor"
                 + "".join(f"\n    {v[1]} {v[0]}: {v[3]} ({len(v[2])}: {', '.join(v[2][:3])})" for v in violations))
            problems += [f"axe at {width} px, {kind}: {v[0]} ({v[1]}) on {', '.join(v[2][:3])}" for v in bad]
            driver.save_screenshot(os.path.join(artifacts, f"audit-{width}-{kind.replace(' ', '-')}.png"))
            if width == WIDTHS[0][0] and driver.find_elements(By.ID, "timelapse"):
                live[f"{kind} (as its script left it)"] = (
                    "<!DOCTYPE html>\n" + driver.execute_script("return document.documentElement.outerHTML")).encode()
    driver.set_window_size(*WIDTHS[0])
    for name, (errors, warnings) in page_audit.vnu({**served, **live}).items():
        step(f"vnu: {name}: {len(errors)} errors, {len(warnings)} warnings"
             + "".join(f"\n    error {e}" for e in errors[:10]) + "".join(f"\n    warning {w}" for w in warnings[:5]))
        problems += [f"vnu, {name}: {e}" for e in errors]
    return problems


def rasterized(driver, picture, kind, width, height):
    """The RGBA pixels Chromium draws PICTURE (bytes of image type KIND) into at WIDTH × HEIGHT,
    on a blank page (a served page's Content-Security-Policy refuses data: images)."""
    result = driver.execute_async_script("""
      const [source, type, width, height, done] = arguments;
      const image = new Image();
      image.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext("2d");
        context.drawImage(image, 0, 0, width, height);
        const data = context.getImageData(0, 0, width, height).data;
        let text = "";
        for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
        done(btoa(text));
      };
      image.onerror = () => done(null);
      image.src = "data:" + type + ";base64," + source;
    """, base64.b64encode(picture).decode(), kind, width, height)
    check(result is not None, f"Chromium did not draw the {kind}")
    return base64.b64decode(result)


def psnr(a, b):
    """The peak signal-to-noise ratio of RGBA pixels B against A over their colour channels, in
    dB, as the rsvg-convert test measures it (VectorRenderTests)."""
    check(len(a) == len(b), f"{len(a)} and {len(b)} bytes of pixels")
    total = sum((a[i] - b[i]) ** 2 for i in range(len(a)) if i % 4 != 3)
    mse = total / (len(a) // 4 * 3)
    return 99 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def vector_downloads(driver, downloads, work):
    """On the version page open in DRIVER: the picture's PNG, SVG and PDF links, each named
    after the file, answered with its type, downloaded as served; the PDF passes qpdf, and
    Chromium draws the SVG at the PNG's size as the PNG (≥ 30 dB: the device drawing is pen)."""
    links = {a.text: a for a in driver.find_elements(By.CSS_SELECTOR, "a.picture")}
    check(sorted(links) == ["PDF", "PNG", "SVG"], f"the picture links are {sorted(links)}")
    stem = f"{DEVICE}-2025-11-28T10:00:00Z"
    served = {}
    for kind, content_type in (("PNG", "image/png"), ("SVG", "image/svg+xml"), ("PDF", "application/pdf")):
        name = links[kind].get_attribute("download")
        check(name == f"{stem}.{kind.lower()}", f"the {kind} link downloads as {name!r}")
        with urllib.request.urlopen(links[kind].get_attribute("href")) as response:
            got = response.headers.get_content_type()
            served[kind] = response.read()
        check(got == content_type, f"the {kind} link answers {got}")
    check(served["SVG"].startswith(b"<?xml") and b"<svg" in served["SVG"], "the SVG link's answer is not SVG")
    check(served["PDF"].startswith(b"%PDF-"), "the PDF link's answer is not a PDF")
    pdf = os.path.join(work, "served.pdf")
    with open(pdf, "wb") as f:
        f.write(served["PDF"])
    qpdf = subprocess.run(["qpdf", "--check", pdf], capture_output=True, text=True)
    check(qpdf.returncode == 0, "qpdf --check of the served PDF: " + qpdf.stdout + qpdf.stderr)
    # Followed as a person follows them: the browser saves what was served, under the name
    # (with the colons a file name cannot have on every system made "_", as Chromium does).
    for kind in ("SVG", "PDF"):
        before = set(os.listdir(downloads))
        click(driver, links[kind])
        def saved(_):
            new = [f for f in set(os.listdir(downloads)) - before if not f.endswith(".crdownload")]
            return new if new and not any(f.endswith(".crdownload") for f in os.listdir(downloads)) else None
        new = wait(driver, saved, f"following the {kind} link saved nothing")
        expected = f"{stem}.{kind.lower()}".replace(":", "_")
        check(new == [expected], f"following the {kind} link saved {new}, not {expected!r}")
        with open(os.path.join(downloads, expected), "rb") as f:
            check(f.read() == served[kind], f"the {kind} saved differs from the one served")
    width, height = struct.unpack(">II", served["PNG"][16:24])
    page = driver.current_url
    driver.get("about:blank")
    fidelity = psnr(rasterized(driver, served["PNG"], "image/png", width, height),
                    rasterized(driver, served["SVG"], "image/svg+xml", width, height))
    driver.get(page)
    check(fidelity >= 30, f"Chromium draws the SVG at {fidelity:.1f} dB from the PNG (at least 30)")
    return (f"version page: PNG, SVG and PDF links named after the file, of their types; the PDF passes qpdf; "
            f"Chromium draws the SVG at {width} × {height} px {fidelity:.1f} dB from the PNG")


def card_names(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#grid .card .name')).map(e => e.textContent)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="folder with the built inkling-archive and inkling-corpus")
    parser.add_argument("--artifacts", required=True, help="folder for the screenshots")
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix="inkling-browser-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    server = driver = None
    passed = []
    try:
        step("building an archive")
        archive, drafts = build_archive(args.bin, work)
        trashed = json.loads(run(args.bin, archive, "--json", "list", "--sort", "oldest"))["drafts"][0]["name"]
        run(args.bin, archive, "delete", trashed)
        # Tags and stars on the newest drafts (the first page's), a tag of a group and one that
        # is markup and quotes: each card and draft page shows them, each tag a link.
        newest = [d["name"] for d in json.loads(run(args.bin, archive, "--json", "list", "--limit", "6"))["drafts"]
                  if d["name"] != HOSTILE][:5]
        for index, name in enumerate(newest):
            run(args.bin, archive, "tag", name, "portfolio", *(["client:anna"] if index < 3 else []))
        run(args.bin, archive, "star", *newest[:2], "--stars", "4")
        run(args.bin, archive, "tag", HOSTILE, HOSTILE_TAG)
        everything = [d["name"] for d in json.loads(run(args.bin, archive, "--json", "list"))["drafts"]]
        server, url = start_server(args.bin, archive, os.path.join(work, "state"))
        step("serving at " + url + "; starting Chromium")
        driver = browser(downloads)
        step("the grid")

        # The grid: every thumbnail loads, and scrolling brings the next page. The printed
        # address moves to the same page under the token's path, which every link keeps.
        driver.get(url)
        check(driver.title == "Drafts · inkling-archive", "title: " + driver.title)
        base = driver.current_url
        token = url.split("?token=")[1]
        check(base.endswith(f"/t/{token}/"), "the printed address opened " + base)
        # The first screen's thumbnails load at once; the page defers the rest (GridView).
        loaded, total = images_loaded(driver, "#grid img:not([loading=lazy])")
        deferred = len(driver.find_elements(By.CSS_SELECTOR, "#grid img[loading=lazy]"))
        check(total == EAGER_THUMBNAILS and loaded == total and total + deferred == PAGE_SIZE,
              f"{loaded} of {total} thumbnails loaded at once, {deferred} deferred")
        check(card_names(driver) == everything[:PAGE_SIZE], "the first page is not the newest drafts")
        driver.save_screenshot(os.path.join(args.artifacts, "grid.png"))
        driver.execute_script("document.getElementById('more').scrollIntoView()")
        wait(driver, lambda d: len(card_names(d)) > PAGE_SIZE, "scrolling to the end loaded no more drafts")
        loaded, total = images_loaded(driver, "#grid img")
        check(loaded == total == len(everything), f"after scrolling: {loaded} of {total} thumbnails, {len(everything)} drafts")
        check(card_names(driver) == everything, "the pages together are not every draft, newest first")
        count = driver.find_element(By.ID, "count").text
        check(count == f"{len(everything)} drafts", f"the grid's count says {count!r} for {len(everything)} drafts")
        passed.append(f"grid: {total} thumbnails loaded over two pages; it says {count!r}")

        # The hostile name is text: no alert, no injected image.
        check(HOSTILE in card_names(driver), "the hostile name is not shown as a name")
        check(driver.execute_script("return document.querySelectorAll('img[src=\"x\"]').length") == 0,
              "a name became an <img> element")
        passed.append("a hostile name shows as text")

        # Live search: type a query, the grid changes to its drafts and the address holds it.
        query = "versions:>=5"
        expected = [d["name"] for d in json.loads(run(args.bin, archive, "--json", "search", query))["drafts"]]
        check(0 < len(expected) < PAGE_SIZE, f"the query matches {len(expected)} drafts")
        box = driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys(query)
        wait(driver, lambda d: card_names(d) == expected, "the grid did not change to the search's drafts")
        check("q=versions" in driver.current_url, "the address does not hold the query: " + driver.current_url)
        loaded, total = images_loaded(driver, "#grid img")
        check(loaded == total == len(expected), f"search: {loaded} of {total} thumbnails")
        driver.save_screenshot(os.path.join(args.artifacts, "search.png"))
        box.send_keys(Keys.END, " and (")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#problem pre"), "no syntax error shown")
        caret = driver.find_element(By.CSS_SELECTOR, "#problem pre").text
        check("^" in caret and "(" in caret, "the syntax error has no caret: " + caret)
        check(card_names(driver) == expected, "a query that does not parse lost the last good results")
        check("stale" in driver.find_element(By.ID, "grid").get_attribute("class"), "old results are not marked")
        passed.append(f"search: {len(expected)} drafts for {query!r}, and a caret message for a syntax error")

        # A date that does not read: the no-script page's sentence, over the last good results.
        box.send_keys(Keys.BACKSPACE * len(" and ("))
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#problem pre") and card_names(d) == expected,
             "the grid did not come back after the query read again")
        since = driver.find_element(By.ID, "since")
        since.send_keys("last week")
        sentence = "\u201clast week\u201d is not a date"
        shown = lambda d: d.find_element(By.ID, "problem").text.replace("\u2068", "").replace("\u2069", "")
        wait(driver, lambda d: sentence in shown(d), "an unreadable date says nothing")
        check(card_names(driver) == expected, "an unreadable date blanked the grid")
        check("stale" in driver.find_element(By.ID, "grid").get_attribute("class"), "old results are not marked")
        driver.save_screenshot(os.path.join(args.artifacts, "bad-date.png"))
        since.send_keys(Keys.BACKSPACE * len("last week"), "2000")
        wait(driver, lambda d: not d.find_element(By.ID, "problem").text and card_names(d) == expected,
             "a date that reads did not bring the grid back")
        check("stale" not in driver.find_element(By.ID, "grid").get_attribute("class"), "new results still marked old")
        since.send_keys(Keys.BACKSPACE * 4)
        passed.append("an unreadable date shows its sentence over the last good results")

        # Tags and stars: shown on the cards (the stars in words too, for a screen reader), and
        # a tag is a link to the grid of its drafts; the search box reads tag: and stars:.
        box.clear()
        box.send_keys(Keys.ENTER)
        driver.get(url)
        anna = [d["name"] for d in json.loads(run(args.bin, archive, "--json", "search", "tag:client:anna"))["drafts"]]
        check(anna == newest[:3], f"the drafts tagged client:anna are {anna}, not {newest[:3]}")
        card = [c for c in driver.find_elements(By.CSS_SELECTOR, "#grid .card")
                if c.find_element(By.CLASS_NAME, "name").text == newest[0]][0]
        words = card.find_element(By.CSS_SELECTOR, ".marks .stars .visually-hidden").get_attribute("textContent")
        check(words == "4 of 5 stars", f"the card's stars read {words!r}")
        links = card.find_elements(By.CSS_SELECTOR, ".marks a.tag")
        check([a.text for a in links] == ["client:anna", "portfolio"], f"the card's tags: {[a.text for a in links]}")
        # A tag of a group links to exactly that tag: the grid of every draft becomes its three.
        click(driver, links[0])
        wait(driver, lambda d: card_names(d) == anna, "the tag's link did not filter the grid to its drafts")
        check(driver.find_element(By.ID, "q").get_attribute("value") == 'tag:"client:anna"',
              "the search box does not hold the tag's search: " + driver.find_element(By.ID, "q").get_attribute("value"))
        driver.save_screenshot(os.path.join(args.artifacts, "tag.png"))
        # A tag of markup, quotes and a backslash ending in a colon is text, and its link finds it.
        driver.get(base + "?q=" + urllib.parse.quote("tag:say*"))
        hostile_link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .card .marks a.tag"),
                            "the hostile tag's draft shows no tag")[0]
        check(hostile_link.text == HOSTILE_TAG, "the hostile tag is not shown as text: " + hostile_link.text)
        click(driver, hostile_link)
        wait(driver, lambda d: d.find_element(By.ID, "q").get_attribute("value").startswith('tag:"say')
             and card_names(d) == [HOSTILE], "the hostile tag's link did not find its one draft")
        starred = [d["name"] for d in json.loads(run(args.bin, archive, "--json", "search", "stars:>=4"))["drafts"]]
        box = driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys("stars:>=4")
        wait(driver, lambda d: card_names(d) == starred, "stars:>=4 in the search box did not find the starred drafts")
        box.clear()
        box.send_keys("@nothing-saved")
        wait(driver, lambda d: "no saved search" in d.find_element(By.ID, "problem").text,
             "an unknown @NAME in the search box says nothing")
        box.clear()
        box.send_keys(Keys.ENTER)
        driver.get(url)
        box = driver.find_element(By.ID, "q")
        passed.append(f"tags and stars: shown on the cards, {len(anna)} drafts by a tag's link, the hostile tag's "
                      f"one draft by its link, {len(starred)} by stars:>=4 in the search box")

        # One draft: one timeline entry per version.
        name = expected[0]
        draft_name = name
        history = json.loads(run(args.bin, archive, "--json", "history", name))["versions"]
        box.clear()
        box.send_keys(Keys.ENTER)
        driver.get(url)
        link = wait(driver, lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "#grid .card > a")
                                       if a.find_element(By.CLASS_NAME, "name").text == name], "no card for " + name)
        click(driver, link[0])
        wait(driver, lambda d: d.find_elements(By.ID, "timeline"), "the draft page has no timeline")
        entries = driver.find_elements(By.CSS_SELECTOR, "#timeline > li.entry")
        check(len(entries) == len(history), f"{len(entries)} timeline entries for {len(history)} versions")
        loaded, total = images_loaded(driver, "#timeline img.swatch, #timeline .thumb img")
        check(loaded == total, f"timeline: {loaded} of {total} images")
        driver.save_screenshot(os.path.join(args.artifacts, "draft.png"))
        passed.append(f"draft {name!r}: {len(entries)} timeline entries")

        # Notes and labels are text from the archive: shown as written, none of it markup. The
        # audit below reads this draft's page and its version 2's, notes and labels and all.
        run(args.bin, archive, "note", name, HOSTILE + "\nsecond line")
        run(args.bin, archive, "note", name, "--version", str(len(history)), "<b>not bold</b> " + BIDI)
        run(args.bin, archive, "label", name, "--version", str(len(history)), HOSTILE)
        run(args.bin, archive, "note", name, "--version", "2", "on version two")
        run(args.bin, archive, "label", name, "--version", "2", "sent to printer")
        driver.refresh()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section.notes .note-text"), "the draft's note is not shown")
        shown_note = driver.find_element(By.CSS_SELECTOR, "section.notes .note-text").text
        check(shown_note == HOSTILE + "\nsecond line", "the draft's note reads " + repr(shown_note))
        entries = driver.find_elements(By.CSS_SELECTOR, "#timeline > li.entry")  # the page was loaded again
        latest_entry = entries[0]
        check(latest_entry.find_element(By.CSS_SELECTOR, ".label").text == HOSTILE, "the label is not shown as text")
        check("<b>not bold</b>" in latest_entry.find_element(By.CSS_SELECTOR, ".notes .note-text").text,
              "the version's note is not shown as written")
        check(driver.execute_script("return document.querySelectorAll('img[src=\"x\"], .note-text b').length") == 0,
              "a note or a label became markup")
        passed.append("notes and labels with markup in them show as text on the draft page")

        # The draft's time-lapse: the video loads and plays to its end, each save has a mark
        # on the scrubber, and a click on one seeks to that save and shows its version's link.
        video = driver.find_element(By.ID, "timelapse-video")
        wait(driver, lambda d: d.execute_script("return arguments[0].readyState >= 1", video),
             "the time-lapse video did not load", timeout=120)
        slider = wait(driver, lambda d: [e for e in d.find_elements(By.ID, "saves") if e.is_displayed()],
                      "no scrubber of the saves")[0]
        check(slider.get_attribute("max") == str(len(history)), f"the scrubber has {slider.get_attribute('max')} "
              f"steps for {len(history)} saves")
        duration = driver.execute_script("return arguments[0].duration", video)
        check(abs(duration - 30) < 0.1, f"the time-lapse lasts {duration} s")
        driver.execute_script("arguments[0].playbackRate = 16; arguments[0].play()", video)
        wait(driver, lambda d: d.execute_script("return arguments[0].ended", video), "the time-lapse did not play to its end")
        wait(driver, lambda d: slider.get_attribute("value") == str(len(history)),
             f"the scrubber did not follow the video to its last save: {slider.get_attribute('value')}")
        driver.save_screenshot(os.path.join(args.artifacts, "timelapse-ended.png"))
        # From the keyboard: Home, then the right arrow to the middle save.
        draft_id = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)["id"][0]
        marks = json.loads(urllib.request.urlopen(base + f"api/draft?id={draft_id}").read())["timelapse"]["marks"]
        number = len(history) // 2 + 1
        seconds = marks[number - 1]["seconds"]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", slider)
        slider.send_keys(Keys.HOME, *[Keys.ARROW_RIGHT] * (number - 1))
        wait(driver, lambda d: abs(d.execute_script("return arguments[0].currentTime", video) - seconds) < 0.05
             and d.execute_script("return arguments[0].paused", video), f"the keys did not seek to {seconds} s")
        shown = driver.find_element(By.CSS_SELECTOR, "#mark-version a")
        check(shown.get_attribute("href").endswith(f"version={number}"), "the scrubber shows " + shown.get_attribute("href"))
        check(f"Version {number}," in (slider.get_attribute("aria-valuetext") or ""),
              "the scrubber does not say its save: " + repr(slider.get_attribute("aria-valuetext")))
        driver.save_screenshot(os.path.join(args.artifacts, "timelapse-mark.png"))
        passed.append(f"time-lapse: {duration:.1f} s played to its end, the scrubber following; {len(marks)} saves; "
                      f"the keys to version {number} seek to {seconds} s")

        # A download is the imported file, byte for byte.
        oldest = history[0]
        click(driver, entries[-1].find_element(By.CLASS_NAME, "download"))
        def downloaded(_):
            files = [f for f in os.listdir(downloads) if not f.endswith(".crdownload")]
            return files if files else None
        files = wait(driver, downloaded, "nothing was downloaded")
        with open(os.path.join(downloads, files[0]), "rb") as f:
            got = f.read()
        with open(os.path.join(drafts, oldest["fileName"]), "rb") as f:
            want = f.read()
        check(got == want, f"the download ({len(got)} bytes) differs from {oldest['fileName']} ({len(want)} bytes)")
        passed.append(f"download of version 1: {len(got)} bytes, as imported (saved as {files[0]!r})")

        # A version large: its share image at the display's scale.
        click(driver, driver.find_element(By.CSS_SELECTOR, "#timeline > li.entry h2 a"))
        image = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".large img"), "no large image")[0]
        loaded, total = images_loaded(driver, ".large img")
        check(loaded == total == 1, "the large image did not load")
        check("scale=1" in image.get_attribute("currentSrc"), "at scale 1 the browser chose " + image.get_attribute("currentSrc"))
        driver.save_screenshot(os.path.join(args.artifacts, "version.png"))
        passed.append("version page: the share image loaded at 1x")

        # Compare: the version beside the one before, the picture of what changed between them
        # and the counts `diff` gives, with the command lines that restore or revert it.
        number = len(history)
        compare = wait(driver, lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "nav.steps a")
                                          if a.text == f"Compare with version {number - 1}"], "no compare link")[0]
        click(driver, compare)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".compare figure"), "the compare page has no figures")
        loaded, total = images_loaded(driver, ".compare img")
        check(loaded == total == 3, f"compare: {loaded} of {total} pictures loaded (two versions and the changes)")
        diff = json.loads(run(args.bin, archive, "--json", "diff", name, str(number - 1), str(number)))
        summary = driver.find_element(By.CSS_SELECTOR, "p.summary").text
        if diff["added"]:
            check(f"+{len(diff['added'])} added" in summary, f"compare says {summary!r}; diff added {len(diff['added'])}")
        commands = driver.find_element(By.CSS_SELECTOR, "#commands pre").text
        check(f"restore --version {number}" in commands, "the compare page's commands: " + commands)
        compare_address = driver.current_url
        driver.save_screenshot(os.path.join(args.artifacts, "compare.png"))
        passed.append(f"compare versions {number - 1} and {number}: three pictures loaded; {summary!r}")

        # A name with bidi overrides stays in its isolate: on its draft page, the size after the
        # download's file name is laid out after it, not pulled in front of it.
        bidi = [d["id"] for d in json.loads(urllib.request.urlopen(base + "api/drafts?limit=500").read())["drafts"]
                if d["name"] == BIDI]
        check(len(bidi) == 1, "the bidi-named draft is not listed")
        driver.get(base + f"draft?id={bidi[0]}")
        order = driver.execute_script("""
          const link = document.querySelector('#timeline .download');
          const bdi = link.querySelector('bdi');
          const size = document.createRange();
          size.setStart(link.nextSibling, 1);
          size.setEnd(link.nextSibling, 2);  // the "(" of " (9.9 KB)"
          const word = document.createRange();
          word.setStart(link.firstChild, 0);
          word.setEnd(link.firstChild, 1);  // the "D" of "Download "
          return [word.getBoundingClientRect().right, bdi.getBoundingClientRect().left,
                  bdi.getBoundingClientRect().right, size.getBoundingClientRect().left];
        """)
        check(order[0] <= order[1] and order[2] <= order[3] + 0.5,
              f"the text around a bidi name is reordered: Download, name, size at {order}")
        check(driver.title.startswith("\u2068" + BIDI), "the title does not isolate the name: " + repr(driver.title))
        driver.save_screenshot(os.path.join(args.artifacts, "bidi.png"))
        passed.append("a bidi-override name stays inside its isolate (the size after it stays after it)")

        # A device drawing's large view is shown at a size one can look at, and fits a phone.
        device = [d["id"] for d in json.loads(urllib.request.urlopen(base + "api/drafts?limit=500").read())["drafts"]
                  if d["name"] == DEVICE]
        check(len(device) == 1, "the device drawing is not listed")
        driver.get(base + f"draft?id={device[0]}&version=1")
        loaded, total = images_loaded(driver, ".large img")
        check(loaded == total == 1, "the device drawing's large image did not load")
        box = driver.execute_script("const r = document.querySelector('.large img').getBoundingClientRect();"
                                    "return [r.width, r.height];")
        check(max(box) >= MINIMUM_SIDE - 1, f"a device drawing's large view is {box[0]:.0f} × {box[1]:.0f} px")
        driver.save_screenshot(os.path.join(args.artifacts, "device-version.png"))
        passed.append(f"device drawing's large view: {box[0]:.0f} × {box[1]:.0f} px")
        passed.append(vector_downloads(driver, downloads, work))

        # The trash: the deleted draft, when it went, and its page says it is in the trash.
        driver.get(url)
        click(driver, driver.find_element(By.CLASS_NAME, "trash-link"))
        rows = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#trash tbody tr"), "the trash page lists nothing")
        check(len(rows) == 1 and rows[0].find_element(By.TAG_NAME, "a").text == trashed,
              f"the trash lists {[r.text for r in rows]}, not {trashed!r}")
        check(rows[0].find_elements(By.TAG_NAME, "time")[-1].get_attribute("datetime").endswith("Z"), "no deletion time")
        driver.save_screenshot(os.path.join(args.artifacts, "trash.png"))
        click(driver, rows[0].find_element(By.TAG_NAME, "a"))
        banner = wait(driver, lambda d: d.find_elements(By.ID, "trashed"), "a trashed draft's page does not say so")[0]
        check("undelete -- " in banner.text, "the banner has no undelete command: " + banner.text)
        driver.save_screenshot(os.path.join(args.artifacts, "trashed-draft.png"))
        passed.append(f"trash: {trashed!r} listed with when it went; its page says it is in the trash")

        # A draft whose drawing does not decode: the server's sentence instead of a player.
        run(args.bin, archive, "import", noise_folder(work))
        noise = [d["id"] for d in json.loads(urllib.request.urlopen(base + "api/drafts?limit=500").read())["drafts"]
                 if d["name"] == NOISE]
        check(len(noise) == 1, "the undecodable draft is not listed")
        driver.get(base + f"draft?id={noise[0]}")
        problem = wait(driver, lambda d: [e for e in d.find_elements(By.ID, "timelapse-problem") if e.is_displayed()],
                       "an undecodable draft shows no reason for its missing time-lapse")[0]
        check("none of its drawings can be read" in problem.text, "the reason shown: " + problem.text)
        check(not driver.find_elements(By.TAG_NAME, "video"), "an undecodable draft still has a player")
        driver.save_screenshot(os.path.join(args.artifacts, "timelapse-problem.png"))
        passed.append("a draft that does not decode says why it has no time-lapse: " + problem.text)

        # A phone, 390 px wide: no page is wider than the screen, whatever the names, and the
        # header takes less than a fifth of it; no version says "−0 removed".
        long_id = [d["id"] for d in json.loads(urllib.request.urlopen(base + "api/drafts?limit=500").read())["drafts"]
                   if d["name"] == LONG]
        check(len(long_id) == 1, "the long-named draft is not listed")
        driver.set_window_size(390, 844)
        for name, address in (("grid", base), ("search", base + "?q=name:Sketchbook_"),
                              ("draft", base + f"draft?id={long_id[0]}"),
                              ("version", base + f"draft?id={long_id[0]}&version=2"),
                              ("compare", compare_address)):
            driver.get(address)
            wide, screen, bar, tall = driver.execute_script(
                "return [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                " document.querySelector('.bar').getBoundingClientRect().height, window.innerHeight]")
            check(screen <= 400, f"the window is {screen} px wide, not a phone's 390")
            check(wide <= screen, f"at {screen} px the {name} page is {wide} px wide")
            check(bar < tall / 5, f"at {screen} × {tall} px the {name} page's header is {bar:.0f} px tall")
            driver.save_screenshot(os.path.join(args.artifacts, f"phone-{name}.png"))
            check("−0 removed" not in driver.find_element(By.TAG_NAME, "main").text, f"the {name} page shows −0 removed")
        passed.append(f"at {screen} px: grid, search, draft, version and compare pages fit the width; header {bar:.0f} of {tall} px")
        driver.set_window_size(1280, 1000)

        # Nothing the browser complained about (CSP violations, failed loads, script errors).
        problems = [entry["message"] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")
                    and "favicon" not in entry["message"] and "400 (Bad Request)" not in entry["message"]
                    and f"?id={noise[0]} - Failed to load resource" not in entry["message"]]
        check(not problems, "the browser reported: " + "; ".join(problems[:5]))
        passed.append("no errors in the browser's console")

        # What the web's validators say about every kind of page (page_audit.py): axe-core
        # at a desktop's and a phone's width finds no serious or critical problem, and the Nu
        # HTML Checker no error, on the grid (its first and second page, a search, a search
        # that does not parse), a draft (with its time-lapse; one saved MANY_SAVES times; one
        # with no time-lapse; one in the trash), a version, a comparison, the saves of a
        # time-lapse, the trash, and the error pages `serve` writes (libmicrohttpd's own are
        # the release binary's, Tests/Browser/library_pages_test.py).
        many = many_saves(args.bin, archive, work)
        drafts_now = json.loads(urllib.request.urlopen(base + "api/drafts?limit=500").read())["drafts"]
        many_id = [d["id"] for d in drafts_now if d["name"] == many][0]
        run(args.bin, archive, "label", many, "--version", "3", "first <i>idea</i>")
        named_id = [d["id"] for d in drafts_now if d["name"] == draft_name][0]
        driver.get(base)
        second = driver.find_element(By.ID, "more").get_attribute("href")
        trashed_page = base + "draft?name=" + urllib.parse.quote(trashed)
        origin = url.split("/?")[0].split("/t/")[0] + "/"
        pages = [
            ("grid", base, "GET"), ("grid page 2", second, "GET"),
            ("search", base + "?q=" + urllib.parse.quote(query), "GET"),
            ("search that does not parse", base + "?q=" + urllib.parse.quote(query + " and ("), "GET"),
            ("search by a tag", base + "?q=" + urllib.parse.quote('tag:"client:anna"'), "GET"),
            ("draft with tags and stars", base + "draft?name=" + urllib.parse.quote(newest[0]), "GET"),
            ("draft", base + f"draft?id={named_id}", "GET"),
            ("draft of many saves", base + f"draft?id={many_id}", "GET"),
            ("draft without time-lapse", base + f"draft?id={noise[0]}", "GET"),
            ("draft in the trash", trashed_page, "GET"),
            ("version", base + f"draft?id={named_id}&version=2", "GET"),
            ("compare", compare_address, "GET"),
            ("saves of a time-lapse", base + f"draft/marks?id={many_id}", "GET"),
            ("trash", base + "trash", "GET"),
            ("error 400", base + "draft?id=abc", "GET"),
            ("error 401", origin, "GET"),
            ("error 404", base + "draft?id=999999", "GET"),
            ("error 405", base + "trash", "POST"),
            ("error 414", base + "draft?id=1&q=" + "x" * 17000, "GET"),
        ]
        # The draft of MANY_SAVES saves on a phone: its scrubber has a step for each, a
        # target a finger finds, and the keys reach the last save and the one before it.
        driver.set_window_size(*WIDTHS[1])
        driver.get(base + f"draft?id={many_id}")
        slider = wait(driver, lambda d: [e for e in d.find_elements(By.ID, "saves") if e.is_displayed()],
                      "the draft of many saves has no scrubber", timeout=120)[0]
        width, height = driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", slider)
        check(slider.get_attribute("max") == str(MANY_SAVES), f"{slider.get_attribute('max')} steps for {MANY_SAVES} saves")
        check(height >= 24 and width >= 200, f"the scrubber is {width:.0f} × {height:.0f} px")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", slider)
        for keys, number in (((Keys.END,), MANY_SAVES), ((Keys.ARROW_LEFT,), MANY_SAVES - 1)):
            slider.send_keys(*keys)
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#mark-version a") and d.find_element(
                By.CSS_SELECTOR, "#mark-version a").get_attribute("href").endswith(f"version={number}"),
                f"the keys did not reach save {number} of {MANY_SAVES}")
        driver.save_screenshot(os.path.join(args.artifacts, "phone-many-saves.png"))
        driver.set_window_size(*WIDTHS[0])
        passed.append(f"{MANY_SAVES} saves: a scrubber of {MANY_SAVES} steps, {width:.0f} × {height:.0f} px at "
                      f"{WIDTHS[1][0]} px, its last saves reached by the keys")
        found = audit(driver, page_audit.Axe(), pages, args.artifacts)
        check(not found, f"{len(found)} validator findings: " + "; ".join(found[:12]))
        viewed = len([page for page in pages if page[2] == "GET"])
        passed.append(f"axe: 0 serious or critical on {viewed} pages at {' and '.join(str(w) for w, _ in WIDTHS)} px; "
                      f"vnu: 0 errors on {len(pages)} pages as served and the draft pages as their script left them")

        # Another port of 127.0.0.1, visited after all of the above, typed and by a link from a
        # page (cookies ignore ports): what it receives does not let anyone into the archive.
        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OtherPort)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        elsewhere = f"http://127.0.0.1:{other.server_address[1]}/"
        driver.get(base)
        driver.get(elsewhere + "typed")
        driver.get(base + "trash")
        driver.execute_script("const a = document.createElement('a'); a.href = arguments[0];"
                              "document.body.append(a); a.click()", elsewhere + "followed")
        wait(driver, lambda d: len(OtherPort.received) >= 2, "the other port's server received nothing")
        other.shutdown()
        port = url.split(":")[2].split("/")[0]
        check(replayed(port, "/", []) == 401, "serve lets in a request without its token")
        cookies = driver.get_cookies()
        check(not cookies, f"the browser keeps cookies for 127.0.0.1: {[c['name'] for c in cookies]}")
        for path, headers in OtherPort.received:
            check(token not in path + repr(headers), f"the other port received the token: {path} {headers}")
            for target in ("/", "/api/drafts", path):
                status = replayed(port, target, headers)
                check(status >= 400, f"{target} with what the other port received ({headers}) got {status}")
        passed.append(f"another port received {len(OtherPort.received)} requests from the browser; "
                      "replayed to serve, each is refused")
    except Exception as failure:
        if driver:
            driver.save_screenshot(os.path.join(args.artifacts, "failure.png"))
        for line in passed:
            print("ok:", line)
        print("browser test FAILED:", failure, file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    for line in passed:
        print("ok:", line)
    print(f"browser test: {len(passed)} checks passed; screenshots in {args.artifacts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
