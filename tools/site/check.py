#!/usr/bin/env python3
"""check.py SITE SHOTS: open every page of the site in headless Chromium and fail
on a broken link, a missing image, a failed load or a console error.

Chromium is driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on file descriptors 3 and 4),
so the test needs Python 3 and Chromium, nothing from a package registry.
Every page is opened twice: from file:// and from a static HTTP server on
127.0.0.1. On top of that:
  * links: every relative link must name a file of the site (a page's #fragment
    must be an id on that page); links to other sites are counted, not fetched;
  * results pages: readable with JavaScript off (the tables are plain HTML), and
    with it on a click on a column head sorts the rows;
  * screenshots of the contents page, the first lecture and the first results
    page go to SHOTS.
CHROMIUM=/path/to/chromium picks the browser (default: chromium on PATH).
Exit status: 0 all good, 1 problems (listed), 2 the browser cannot be started.
"""
import base64
import fcntl
import functools
import http.server
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

PAGE_TIMEOUT_S = 20


class Browser:
    """One headless Chromium and one tab, spoken to over the DevTools pipe."""

    def __init__(self, executable):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        # Move the child's ends above 9 so that placing them on 3 and 4 cannot clobber one another.
        child_in = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
        child_out = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
        os.close(to_child_r)
        os.close(from_child_w)

        def on_fds_3_and_4():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.profile = tempfile.mkdtemp(prefix="site-check-")
        flags = ["--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                 "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
                 "--user-data-dir=" + self.profile,
                 # CI containers: no user namespaces for the sandbox (and root is refused
                 # inside it), a small /dev/shm. The pages are our own files.
                 "--no-sandbox", "--disable-dev-shm-usage"]
        self.process = subprocess.Popen([executable] + flags + ["about:blank"], pass_fds=(3, 4),
                                        preexec_fn=on_fds_3_and_4, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(child_in)
        os.close(child_out)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_child], [], [], left)[0]:
                raise TimeoutError("no answer from the browser in %d s" % PAGE_TIMEOUT_S)
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                err = self.process.stderr.read().decode(errors="replace")
                raise RuntimeError("the browser exited:\n" + err[-2000:])
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method):
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        seen = 0
        while True:
            if any(event["method"] == method for event in self.events[seen:]):
                return
            seen = len(self.events)
            self.events.append(self._read_message(deadline))

    def drain(self, seconds):
        """Collect the events that arrive within `seconds`."""
        deadline = time.monotonic() + seconds
        while select.select([self.from_child], [], [], max(0, deadline - time.monotonic()))[0]:
            self.buffer += os.read(self.from_child, 1 << 16)
            while b"\0" in self.buffer:
                message, self.buffer = self.buffer.split(b"\0", 1)
                self.events.append(json.loads(message))
            if time.monotonic() > deadline:
                break

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page script failed: " + json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def open(self, url):
        """Load url; return the problems it reported (console errors, failed loads)."""
        self.events = []
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_for("Page.loadEventFired")
        self.drain(0.1)  # late console messages
        problems, urls = [], {}
        for event in self.events:
            method, p = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                problems.append("console error: " + text)
            elif method == "Runtime.exceptionThrown":
                details = p.get("exceptionDetails", {})
                problems.append("script exception: " + details.get("exception", {}).get(
                    "description", details.get("text", "")))
            elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                problems.append("browser error: %s %s" % (entry.get("text", ""), entry.get("url", "")))
            elif method == "Network.requestWillBeSent":
                urls[p.get("requestId")] = p.get("request", {}).get("url", "")
            elif method == "Network.loadingFailed" and not p.get("canceled"):
                problems.append("failed to load %s: %s" % (urls.get(p.get("requestId"), "?"), p.get("errorText", "")))
            elif method == "Network.responseReceived" and p.get("response", {}).get("status", 200) >= 400:
                problems.append("HTTP %d for %s" % (p["response"]["status"], p["response"]["url"]))
        return problems

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# What a page says about itself: the Markdown it came from, its links, images and ids.
PAGE_FACTS = """(() => ({
  source: (document.querySelector('meta[name=source]') || {}).content || '',
  links: [...document.querySelectorAll('a[href]')].map(a => [a.getAttribute('href'), a.href]),
  images: [...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0]),
  ids: [...document.querySelectorAll('[id], a[name]')].map(e => e.id || e.name),
  stylesheets: document.styleSheets.length,
  text: document.body.innerText.length,
}))()"""

# On a results page: the rows of every table, and whether its heads are sort buttons.
TABLE_FACTS = """(() => [...document.querySelectorAll('table.sortable')].map(t => ({
  rows: t.tBodies[0].rows.length,
  // a table in a closed <details> is one click away, with or without JavaScript
  visible: t.offsetHeight > 0 || !!t.closest('details:not([open])'),
  buttons: t.querySelectorAll('th button').length,
})))()"""

# Click the head of column `median_ms` (or the first numeric column) of the first table twice;
# report whether the column came out ascending, then descending.
SORT_CHECK = """(() => {
  const t = document.querySelector('table.sortable');
  const heads = [...t.tHead.rows[0].cells];
  let c = heads.findIndex(h => h.textContent.startsWith('median'));
  if (c < 0) c = [...t.tBodies[0].rows[0].cells].findIndex(td => td.classList.contains('num'));
  if (c < 0) return 'no numeric column';
  const button = heads[c].querySelector('button');
  if (!button) return 'the column heads are not sort buttons (sort.js did not run)';
  const value = td => Number(td.dataset.value !== undefined ? td.dataset.value : td.textContent);
  const column = () => [...t.tBodies[0].rows].map(r => value(r.cells[c]));
  const ordered = (v, dir) => v.every((x, i) => i == 0 || dir * (x - v[i - 1]) >= 0);
  button.click();
  if (!ordered(column(), 1)) return 'first click did not sort ascending';
  button.click();
  if (!ordered(column(), -1)) return 'second click did not sort descending';
  return 'ok';
})()"""


def site_pages(site):
    pages = []
    for folder, _, files in os.walk(site):
        pages += [os.path.relpath(os.path.join(folder, f), site) for f in files if f.endswith(".html")]
    return sorted(pages)


def check_links(site, base, page, facts, fragments):
    """Problems with the links and images of one page; remembers #fragments to check later."""
    problems, external = [], 0
    for written, resolved in facts["links"]:
        url = urllib.parse.urlsplit(resolved)
        if not resolved.startswith(base):
            external += url.scheme in ("http", "https", "mailto")
            if url.scheme not in ("http", "https", "mailto"):
                problems.append("link '%s' leaves the site (%s)" % (written, resolved))
            continue
        target = urllib.parse.unquote(urllib.parse.urlsplit(resolved[len(base):]).path) or page
        path = os.path.join(site, target)
        if not os.path.isfile(path):
            hint = " (the site never publishes solutions/)" if "solutions/" in written else ""
            problems.append("broken link '%s': %s is not in the site%s" % (written, target, hint))
        elif url.fragment and target.endswith(".html"):
            fragments.append((page, written, target, urllib.parse.unquote(url.fragment)))
    for written, loaded in facts["images"]:
        if not loaded:
            problems.append("missing image '%s'" % written)
    return problems, external


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    if len(sys.argv) != 3:
        print("usage: check.py SITE SHOTS", file=sys.stderr)
        return 2
    site, shots = os.path.abspath(sys.argv[1]), sys.argv[2]
    pages = site_pages(site)
    if "index.html" not in pages:
        print("site-test: %s/index.html is missing: run 'make site' first" % site, file=sys.stderr)
        return 2
    executable = os.environ.get("CHROMIUM") or next(
        (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if not executable:
        print("site-test: no Chromium found (apt-get install chromium, or CHROMIUM=/path)", file=sys.stderr)
        return 2
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    try:
        browser = Browser(executable)
    except Exception as e:  # the browser did not come up: say why
        print("site-test: cannot drive %s: %s" % (executable, e), file=sys.stderr)
        return 2

    server = serve(site)
    problems, ids, fragments = [], {}, []
    links = images = external = 0
    try:
        for base in ("file://" + site + "/", "http://127.0.0.1:%d/" % server.server_address[1]):
            for page in pages:
                found = browser.open(base + page)
                facts = browser.evaluate(PAGE_FACTS)
                if facts["stylesheets"] == 0:
                    found.append("no stylesheet")
                if facts["text"] == 0:
                    found.append("the page shows no text")
                bad, ext = check_links(site, base, page, facts, fragments)
                found += bad
                ids[page] = set(facts["ids"])
                links += len(facts["links"])
                images += len(facts["images"])
                external += ext
                origin = " (from %s)" % facts["source"] if facts["source"] else ""
                problems += ["%s%s [%s]: %s" % (page, origin, base.split(":")[0], p) for p in found]
                if base.startswith("file:") and page == "index.html":
                    browser.screenshot(os.path.join(shots, "contents.png"))
                if base.startswith("file:") and page == first_lecture(pages):
                    browser.screenshot(os.path.join(shots, "lecture.png"))
                if page.endswith("results.html") and base.startswith("file:"):
                    if not os.path.exists(os.path.join(shots, "results.png")):
                        browser.screenshot(os.path.join(shots, "results.png"))
                    problems += ["%s: %s" % (page, p) for p in check_results(browser, base + page)]
        for page, written, target, fragment in fragments:
            if fragment not in ids.get(target, set()):
                problems.append("%s: link '%s': no id '%s' on %s" % (page, written, fragment, target))
    finally:
        browser.close()
        server.shutdown()

    for p in sorted(set(problems)):
        print("site-test: " + p)
    verdict = "%d problem(s)" % len(set(problems)) if problems else "no problems"
    print("site-test: %d pages opened from file:// and http://, %d links (%d to other sites, not fetched), "
          "%d images: %s; screenshots in %s/" % (len(pages), links // 2, external // 2, images // 2,
                                                verdict, shots))
    return 1 if problems else 0


def first_lecture(pages):
    lectures = [p for p in pages if p.startswith("lectures/") and p[9:10].isdigit()]
    return lectures[0] if lectures else None


def check_results(browser, url):
    """A results page: tables with JavaScript off, sorting with it on."""
    problems = []
    browser.call("Emulation.setScriptExecutionDisabled", {"value": True}, session=True)
    try:
        browser.open(url)
        tables = browser.evaluate(TABLE_FACTS)
    finally:
        browser.call("Emulation.setScriptExecutionDisabled", {"value": False}, session=True)
    if not tables:
        problems.append("no data table")
    for i, t in enumerate(tables or []):
        if t["rows"] == 0 or not t["visible"]:
            problems.append("table %d is empty or hidden with JavaScript off" % (i + 1))
        if t["buttons"]:
            problems.append("table %d has sort buttons although JavaScript is off" % (i + 1))
    browser.open(url)
    if tables:
        verdict = browser.evaluate(SORT_CHECK)
        if verdict != "ok":
            problems.append("sorting: " + verdict)
    return problems


if __name__ == "__main__":
    sys.exit(main())
