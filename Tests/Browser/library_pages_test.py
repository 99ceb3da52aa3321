#!/usr/bin/python3
"""The error pages libmicrohttpd writes itself, before `serve` sees the request (400 for a
header line that does not read, 414 for a target too long, 431, 505; not its 413 for a
Content-Length it cannot hold, whose head libmicrohttpd 0.9.75 writes twice, so no page of
any kind arrives as one), through the web's validators
(page_audit.py): the Nu HTML Checker on each page, and axe-core in Chromium on the 414 a
browser gets for an address too long, at a desktop's and a phone's width.

The release binary's libmicrohttpd is patched to send the server's pages instead of its own
(packaging/libmicrohttpd/): there every page must have no vnu error, no serious or critical axe
finding, and say what was wrong. A binary that links Debian's shared libmicrohttpd sends the
library's pages, which are only counted.

    Tests/Browser/library_pages_test.py --binary BINARY --artifacts .build/browser-artifacts
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import page_audit
from browser_test import WIDTHS, browser, step

LONG = 40000  # past the connection's memory (HTTPDaemonSettings.memoryLimit)

REQUESTS = {
    400: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nA header line without a colon\r\n\r\n",
    414: "GET /" + "a" * LONG + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    431: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + "a" * LONG + "\r\n\r\n",
    505: "GET / HTTP/7.0\r\nHost: 127.0.0.1\r\n\r\n",
}

# What each page must say (the library's 414 said its header was too big).
SAYS = {400: "not well-formed HTTP", 414: "address", 431: "headers", 505: "HTTP version"}


def exchange(port, request):
    """(status, headers text, body) of one request on a new connection, read to its close."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request.encode())
        received = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    return status, head.decode("latin-1"), body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True, help="the inkling-archive binary to serve with")
    parser.add_argument("--artifacts", required=True, help="folder for the screenshots")
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    needed = subprocess.run(["readelf", "-d", args.binary], capture_output=True, text=True).stdout
    patched = "libmicrohttpd" not in needed
    work = tempfile.mkdtemp(prefix="inkling-library-pages-")
    server = driver = None
    try:
        archive = os.path.join(work, "archive.sqlite")
        os.makedirs(os.path.join(work, "empty"))
        subprocess.run([args.binary, "--archive", archive, "import", os.path.join(work, "empty")],
                       check=True, capture_output=True)
        server = subprocess.Popen(
            [args.binary, "--archive", archive, "--json", "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, XDG_STATE_HOME=work))
        url = json.loads(server.stdout.readline())["url"]
        port = int(url.split(":")[2].split("/")[0])
        pages = {}
        problems = []
        for status, request in REQUESTS.items():
            got, head, body = exchange(port, request)
            if got != status:
                problems.append(f"expected libmicrohttpd's own {status}, got {got}: {head[:200]}")
                continue
            pages[f"libmicrohttpd's {status}"] = body
            if patched and SAYS[status] not in body.decode("utf-8", "replace"):
                problems.append(f"the {status} page does not say what was wrong: {body[:300]!r}")
        counts = page_audit.vnu(pages)
        for name, (errors, warnings) in counts.items():
            step(f"vnu: {name}: {len(errors)} errors, {len(warnings)} warnings"
                 + "".join(f"\n    error {e}" for e in errors[:5]))
            if patched:
                problems += [f"vnu, {name}: {e}" for e in errors]
        driver = browser(work)
        axe = page_audit.Axe()
        for width, height in WIDTHS:
            driver.set_window_size(width, height)
            driver.get(f"http://127.0.0.1:{port}/" + "a" * LONG)
            violations = axe.run(driver)
            bad = page_audit.failing(violations)
            step(f"axe at {width} px: libmicrohttpd's 414: {len(bad)} serious or critical, "
                 f"{len(violations) - len(bad)} moderate or minor"
                 + "".join(f"\n    {v[1]} {v[0]}: {v[3]}" for v in violations))
            driver.save_screenshot(os.path.join(args.artifacts, f"library-414-{width}.png"))
            if patched:
                problems += [f"axe at {width} px, libmicrohttpd's 414: {v[0]} ({v[1]})" for v in bad]
        if problems:
            print("library pages test FAILED: " + "; ".join(problems[:10]), file=sys.stderr)
            return 1
        errors = sum(len(e) for e, _ in counts.values())
        if patched:
            print(f"library pages test: libmicrohttpd's own {', '.join(map(str, REQUESTS))}: the server's pages, "
                  f"vnu errors {errors}, axe serious and critical 0 at {' and '.join(str(w) for w, _ in WIDTHS)} px")
        else:
            print(f"library pages test: this binary links Debian's libmicrohttpd, whose own pages "
                  f"({', '.join(map(str, REQUESTS))}) are the library's: vnu errors {errors} (counted, not checked)")
        return 0
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
