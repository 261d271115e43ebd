#!/usr/bin/env python3
"""The index's search box in a real browser (docs/site.md "Finding a user"): headless Chromium types into it and
must reach the user's timeline; and with JavaScript off, the index's pages must still lead everywhere.

usage: search_check.py [--chromium BIN] [--serve FANOUT EXPORT] SITE
  SITE  a folder written by `fanout build` with at least the kinds index, search and timelines
  --serve  also start `FANOUT serve EXPORT --port 0` (the export SITE was built from) and search its index

For the site opened from disk (file:, as `make run` says to open it, with none of the flags that let a page
read files) and served over HTTP on 127.0.0.1 (fetching search.json), it:
  - types the start of a username, key by key, into the search box; the status must count the users whose
    username or uid starts with it, ignoring case (counted here from search.json), and the results must be
    the first 20 of them; arrow keys go down to the user's link and Enter opens it: the page must be that
    user's timeline (its <html data-timeline="UID">);
  - the same with the start of a uid, and Enter in the box, which opens the first result;
and over HTTP once more with window.fanoutSearchURL defined (as `fanout serve` does): each search must ask
that URL with ?q=PREFIX, and the answers (from a stand-in here) must be shown. With --serve, the same on the
index `fanout serve` answers with: the page must ask the server's search endpoint, show its answer (fetched here
too, to compare) and reach the user's timeline; then the server must stop cleanly on SIGINT.
With JavaScript disabled: the search form is not shown, the first page lists --per-page users, the next-page
link reaches page 2, whose first page link leads back, and a user's link reaches their timeline.

Drives Chromium over the DevTools protocol with the browser class of scripts/validate/axe_check.py (standard library
only). Exit 0 when every check passes, 1 with the failures listed.
"""
import argparse
import json
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe_check import Chromium, Page, find_chromium  # noqa: E402

SHOWN = 20  # results search.js lists at most
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL " + message, file=sys.stderr)
    return ok


def matches(entries, prefix):
    q = prefix.lower()
    return [e for e in entries if e["username"].lower().startswith(q) or e["uid"].lower().startswith(q)]


def shortest_prefix(entries, value, target):
    """The shortest start of `value` at which `target` is among the results shown (and fewer than all users)."""
    for n in range(1, len(value) + 1):
        found = matches(entries, value[:n])
        if target in found[:SHOWN] and len(found) < len(entries):
            return value[:n]
    return value


class Tab(Page):
    """A page of axe_check's browser that may reach 127.0.0.1 (axe_check's own pages block every http URL)."""

    def __init__(self, browser):
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        super().__init__(browser, target, session)
        self.call("Page.enable")
        self.call("Runtime.enable")

    def wait(self, expression, what, seconds=10):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                value = self.eval(expression)
            except RuntimeError:
                value = None  # the page is changing
            if value:
                return value
            time.sleep(0.05)
        check(False, f"timed out waiting for {what}")
        return None

    def key(self, key, code=None, vk=0, text=None):
        base = {"key": key, "code": code or key, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        down = dict(base, type="keyDown")
        if text is not None:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def type(self, text):
        for ch in text:
            self.key(ch, code="", text=ch)

    def click(self, selector):
        box = self.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if not check(box is not None, f"nothing to click at {selector}"):
            return False
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1})
        return True


def search_and_open(tab, index_url, entries, target, by, enter_in_box, where, answers=None):
    """Types the start of `target`'s `by` (username or uid) and opens the result; checks the page reached.
    `answers(prefix)`, when given, says what the page must list (a server's answer, at most SHOWN)."""
    if answers is None:
        prefix = shortest_prefix(entries, target[by], target)
        expected = matches(entries, prefix)
    else:
        # A server lists its first SHOWN matches and counts them all: the shortest prefix it lists the target at.
        value = target[by]
        prefix = next((value[:n] for n in range(1, len(value) + 1)
                       if any(e["uid"] == target["uid"] for e in answers(value[:n])[0])), value)
        expected, total = answers(prefix)
        check(any(e["uid"] == target["uid"] for e in expected), f"{where}: the server's answer to {prefix!r} lacks {target['uid']}")
        check(total == len(matches(entries, prefix)),
              f"{where}: the server counts {total} matches of {prefix!r}, the static search {len(matches(entries, prefix))}")
    tab.goto(index_url)
    if not tab.wait("!document.querySelector('form.search').hidden", f"{where}: the search form shown"):
        return
    tab.click("#user-search")
    tab.type(prefix)
    label = f"{where}: {by} prefix {prefix!r}"
    count = f"{len(expected) if answers is None else total:,}"
    status = tab.wait(f"(() => {{ const s = document.querySelector('.search-status').textContent;"
                      f" return s.includes({json.dumps(count)}) && document.querySelectorAll('.search-results a').length ? s : ''; }})()",
                      f"{label}: the status counting {count} users")
    shown = tab.eval("[...document.querySelectorAll('.search-results .username')].map(e => e.textContent)")
    check(shown == [e["username"] for e in expected[:SHOWN]],
          f"{label}: results {shown} (status {status!r}), expected {[e['username'] for e in expected[:SHOWN]]}")
    if answers is not None:
        asked = tab.eval("performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('?q='))")
        check(asked and all("/_fanout/search?q=" in n for n in asked), f"{label}: the page asked {asked}, not the server's search")
    if enter_in_box:
        target = expected[0]
        tab.key("Enter", vk=13, text="\r")
    else:
        at = [e["uid"] for e in expected].index(target["uid"])
        for _ in range(at + 1):
            tab.key("ArrowDown", vk=40)
        focused = tab.eval("document.activeElement.querySelector('.uid') ? document.activeElement.querySelector('.uid').textContent : ''")
        check(focused == "uid " + target["uid"], f"{label}: arrow keys focus {focused!r}, not uid {target['uid']}")
        tab.key("Enter", vk=13, text="\r")
    reached = tab.wait("document.readyState === 'complete' && document.documentElement.dataset.timeline",
                       f"{label}: a timeline page")
    check(reached == target["uid"], f"{label}: reached the timeline of {reached!r}, not {target['uid']!r}")
    check(tab.eval("location.href").endswith(target["url"]), f"{label}: at {tab.eval('location.href')}")


def serve(site):
    """The site over HTTP on 127.0.0.1, plus /api/search?q= standing in for `fanout serve`'s search."""
    entries = json.loads((site / "search.json").read_text(encoding="utf-8"))
    asked = []

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path != "/api/search":
                return super().do_GET()
            q = urllib.parse.parse_qs(url.query).get("q", [""])[0]
            asked.append(q)
            body = json.dumps(matches(entries, q)[:SHOWN]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, asked


class FanoutServe:
    """`fanout serve EXPORT --port 0` (docs/serve.md): its first line on stdout is its URL."""

    def __init__(self, binary, export):
        # SIGINT as a command in a terminal's foreground gets it: under a background job (`make test &`, a CI runner
        # started that way) SIGINT is ignored and passed on ignored, and serve rightly leaves it so.
        self.process = subprocess.Popen([binary, "serve", export, "--port", "0", "--pages", "index,search,timelines"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.process.kill()
            sys.exit(f"fanout serve printed {self.url!r}, not its URL: {self.process.stderr.read()}")

    def search(self, prefix):
        """The users the server lists for `prefix`, and how many match in all (its X-Total-Count)."""
        with urllib.request.urlopen(self.url + "_fanout/search?q=" + urllib.parse.quote(prefix)) as response:
            return json.loads(response.read()), int(response.headers["X-Total-Count"])

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "none (killed after 20 s)"
        check(code == 0, f"fanout serve: exit status {code} after SIGINT: {self.process.stderr.read()[-500:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site")
    parser.add_argument("--chromium")
    parser.add_argument("--serve", nargs=2, metavar=("FANOUT", "EXPORT"))
    args = parser.parse_args()
    site = Path(args.site).resolve()
    entries = json.loads((site / "search.json").read_text(encoding="utf-8"))
    if len(entries) < 100:
        sys.exit(f"{site}: expected a site of many users, found {len(entries)}")
    server, asked = serve(site)
    http_root = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = Chromium(find_chromium(args.chromium), file_access=False, loopback=True)
    try:
        tab = Tab(browser)
        for where, root in (("from disk", site.as_uri() + "/"), ("over HTTP", http_root)):
            search_and_open(tab, root + "index.html", entries, entries[len(entries) // 2], "username", False, where)
            search_and_open(tab, root + "index.html", entries, entries[len(entries) // 3], "uid", False, where)
            search_and_open(tab, root + "index.html", entries, entries[len(entries) // 5], "uid", True, where)

        # As `fanout serve` pages do: window.fanoutSearchURL set before the page's scripts run.
        tab.call("Page.addScriptToEvaluateOnNewDocument", {"source": "window.fanoutSearchURL = '/api/search';"})
        search_and_open(tab, http_root + "index.html", entries, entries[len(entries) // 4], "username", False,
                        "with fanoutSearchURL")
        check(asked and all(entries[len(entries) // 4]["username"].lower().startswith(q.lower()) for q in asked),
              f"with fanoutSearchURL: the server was asked {asked}")

        # Without JavaScript: no search form, the pages of the index lead everywhere.
        plain = Tab(browser)
        plain.call("Emulation.setScriptExecutionDisabled", {"value": True})
        plain.goto(site.as_uri() + "/index.html")
        check(plain.eval("getComputedStyle(document.querySelector('form.search')).display") == "none",
              "without JavaScript: the search form is shown")
        first = plain.eval("[...document.querySelectorAll('table.users tbody th a:first-child')].map(a => a.textContent)")
        check(first == [e["username"] for e in entries[:len(first)]] and len(first) > 1,
              f"without JavaScript: the first page lists {first[:3]}…, not the first users by name")
        if plain.click("a[rel=next]"):
            plain.wait("location.pathname.endsWith('/page/2/index.html') && document.readyState === 'complete'",
                       "without JavaScript: page 2")
            second = plain.eval("[...document.querySelectorAll('table.users tbody th a:first-child')].map(a => a.textContent)")
            check(second == [e["username"] for e in entries[len(first):len(first) + len(second)]],
                  f"without JavaScript: page 2 lists {second[:3]}…")
            plain.click("nav.pagination ol a")
            plain.wait("location.pathname.endsWith('/index.html') && !location.pathname.includes('/page/')"
                       " && document.readyState === 'complete'", "without JavaScript: back to page 1 by its number")
        if plain.click("table.users tbody th a"):
            reached = plain.wait("document.readyState === 'complete' && document.documentElement.dataset.timeline",
                                 "without JavaScript: a user's timeline")
            check(reached == entries[0]["uid"], f"without JavaScript: reached {reached!r}, not {entries[0]['uid']!r}")

        if args.serve:
            served = FanoutServe(*args.serve)
            try:
                for target, by in ((entries[len(entries) // 6], "username"), (entries[len(entries) // 7], "uid")):
                    search_and_open(tab, served.url, entries, target, by, False, "fanout serve", served.search)
                # One letter matches more users than are listed: the status counts them all, as from disk.
                letter = max("abcdefghijklmnopqrstuvwxyz", key=lambda c: len(matches(entries, c)))
                count = len(matches(entries, letter))
                check(count > SHOWN, f"the letter {letter!r} matches only {count} users")
                tab.goto(served.url)
                if tab.wait("!document.querySelector('form.search').hidden", "fanout serve: the search form shown"):
                    tab.click("#user-search")
                    tab.type(letter.upper())
                    tab.wait(f"document.querySelector('.search-status').textContent.startsWith("
                             f"{json.dumps(f'The first {SHOWN} of {count:,} matches')}) && "
                             f"document.querySelectorAll('.search-results a').length === {SHOWN}",
                             f"fanout serve: {letter.upper()!r} listing {SHOWN} of {count:,} matches")
            finally:
                served.stop()
    finally:
        browser.close()
        server.shutdown()
    if failures:
        print(f"{len(failures)} search check(s) failed", file=sys.stderr)
        sys.exit(1)
    print(f"search: {len(entries):,} users; found by username and uid prefix from disk, over HTTP and through "
          "fanoutSearchURL" + (", and on fanout serve's index" if args.serve else "") + "; the index works without JavaScript")


if __name__ == "__main__":
    main()
