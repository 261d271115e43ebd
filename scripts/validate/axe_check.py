#!/usr/bin/env python3
"""Run axe-core on local HTML pages in Debian's headless Chromium; fail on serious or critical violations.

usage: axe_check.py [options] PATH [PATH ...]
  PATH            an .html file, or a folder searched recursively for *.html
  --axe FILE      axe.min.js (default: $AXE_JS, else the copy inside the installed
                  `axe-playwright-python` package: pip install --no-deps axe-playwright-python==0.1.8)
  --chromium BIN  the browser (default: $CHROMIUM, else chromium, chromium-browser, google-chrome on PATH)
  --width N       viewport width for the axe run, CSS px (default 1280; height 900). axe runs its default
                  rules and target-size (WCAG 2.2 target size, off in axe's defaults)
  --fail-on LEVEL lowest impact that fails: minor|moderate|serious|critical|none (default serious)
  --overflow W,.. also load each page at these widths (e.g. 360,390) and report horizontal scrolling
                  (documentElement.scrollWidth > clientWidth); with --fail-overflow it fails the run
  --min-font PX   at the --overflow widths (else at --width), fail when text is drawn smaller than PX
                  (SVG text counts at its drawn size, after the scaling of a viewBox)
  --images        fail when an image with width and height attributes is drawn in another shape (the
                  box it reserves before it loads), or a broken image is drawn less than 48 px tall or
                  without its alt text (the network is blocked here, so every photo is broken)
  --cards         Fanout's post cards: the heart (.post-footer) on the line of the likes (.post-likes), and
                  the likes at least 4 px above the card's border
  --sample N      at most N pages per folder: index.html and report.html when present, then pages
                  spread evenly over the sorted rest (for large sites)
  --screenshots DIR  save DIR/<page>@<width>.png, full page, at 390 and 1280 px (or --shot-widths)
  --shot-height PX   keep only the top PX CSS px of each screenshot (the README's pictures: make docs-images)
  --json FILE     write every page's violations as JSON
  -q              print only failing pages

Exit: 0 nothing at or above --fail-on, 1 violations (or overflow with --fail-overflow, small text with
--min-font, misdrawn images with --images), 2 usage/browser error.

Part of `make test` (validate-pages); copied from the project's research notes and extended with --min-font,
--images and --sample.

Only the standard library is used: Chromium is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, NUL-separated JSON), so no websocket
library, no chromedriver, no port, and no browser download.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

IMPACTS = ["minor", "moderate", "serious", "critical"]


class BrowserError(RuntimeError):
    pass


def _pipe():
    """os.pipe() with both ends at fd >= 10: with stdin/stdout closed (as under some CI runners) a plain pipe
    could get fd 0-2, which the child's standard streams would then overwrite."""
    ends = []
    for fd in os.pipe():
        ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return ends


class Chromium:
    """A headless Chromium spoken to over --remote-debugging-pipe."""

    def __init__(self, binary, timeout=60.0, file_access=True, loopback=False):
        """file_access=False leaves out --allow-file-access-from-files, so that pages opened from disk are as
        restricted as in a reader's browser; loopback=True lets pages reach 127.0.0.1, where
        scripts/validate/search_check.py serves a site."""
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="axe-check-")
        cmd_r, self._cmd_w = _pipe()        # we write commands, Chromium reads fd 3
        self._resp_r, resp_w = _pipe()      # Chromium writes fd 4, we read replies

        def child_fds():                     # runs in the child between fork and exec
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)    # via fds >= 10, so 3 and 4 can't clobber each other
            b = fcntl.fcntl(resp_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)                                # os.dup2 makes the copies inheritable
            os.dup2(b, 4)

        args = [
            binary, "--headless", "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
        ] + (["--allow-file-access-from-files"] if file_access else []) + [
            # offline: no host name resolves, so nothing a page links (web fonts, photos) leaves the machine
            "--host-resolver-rules=MAP * ~NOTFOUND" + (", EXCLUDE 127.0.0.1" if loopback else ""), "--disable-component-update", "--no-pings",
            "--disable-domain-reliability", "--disable-client-side-phishing-detection",
        ]
        if os.geteuid() == 0:                # Chromium refuses to start as root with its sandbox
            args.append("--no-sandbox")
        args.append("about:blank")
        # Chromium's own log goes to a file (a pipe nobody reads could fill up and stall the browser)
        self.log = open(os.path.join(self.profile, "chromium.log"), "w+b")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.log, pass_fds=(3, 4), preexec_fn=child_fds)
        os.close(cmd_r)
        os.close(resp_w)
        self._buf = b""
        self._next_id = 0
        self._events = []
        try:
            self.version = self.call("Browser.getVersion")["product"]   # waits until the browser answers
        except BaseException:
            self.close()
            raise

    # -- protocol ---------------------------------------------------------------------------
    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for Chromium")
            ready, _, _ = select.select([self._resp_r], [], [], left)
            if ready:
                chunk = os.read(self._resp_r, 1 << 20)
                if not chunk:
                    raise BrowserError(f"Chromium closed the pipe (exit {self.proc.wait(5)}): {self.log_tail()}")
                self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def log_tail(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-1500:].strip()

    def call(self, method, params=None, session=None, timeout=None):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._cmd_w, data):]
        except BrokenPipeError:
            raise BrowserError(f"Chromium is gone (exit {self.proc.wait(5)}): {self.log_tail()}") from None
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self._next_id:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error'].get('message')} {m['error'].get('data', '')}")
                return m.get("result", {})
            if "method" in m:
                self._events.append(m)

    def wait_event(self, method, session, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, m in enumerate(self._events):
                if m.get("method") == method and m.get("sessionId") == session:
                    return self._events.pop(i)
            m = self._read_message(deadline)
            if "method" in m:
                self._events.append(m)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._resp_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- pages ------------------------------------------------------------------------------
    def new_page(self):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=session)
        self.call("Runtime.enable", session=session)
        # and requests to addresses (http://127.0.0.1/...) are refused inside the browser, before any I/O
        self.call("Network.enable", session=session)
        self.call("Network.setBlockedURLs", {"urls": ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]},
                  session=session)
        return Page(self, target, session)


class Page:
    def __init__(self, browser, target, session):
        self.b, self.target, self.session = browser, target, session

    def call(self, method, params=None, timeout=None):
        return self.b.call(method, params, session=self.session, timeout=timeout)

    def set_viewport(self, width, height=900):
        # mobile=False: the layout viewport is exactly `width` CSS px, so overflow shows as
        # scrollWidth > clientWidth (mobile=True may widen the layout viewport to fit the content).
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def goto(self, url):
        self.b._events = [e for e in self.b._events if e.get("sessionId") != self.session]
        r = self.call("Page.navigate", {"url": url})
        if r.get("errorText"):
            raise BrowserError(f"{url}: {r['errorText']}")
        self.b.wait_event("Page.loadEventFired", self.session)
        # web fonts and images settled
        self.eval("document.fonts ? document.fonts.ready.then(() => true) : true")

    def eval(self, expression, timeout=None):
        r = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError(f"script error: {d.get('exception', {}).get('description') or d.get('text')}")
        return r["result"].get("value")

    def overflow(self):
        """scrollWidth/clientWidth of the document, and the elements that stick out of a parent that fits."""
        return self.eval(r"""(() => {
            const de = document.documentElement, cw = de.clientWidth, out = [];
            const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
            for (const e of document.body ? document.body.querySelectorAll('*') : []) {
                const r = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
                if (r.width > 0 && r.right > cw + 0.5 && p.right <= cw + 0.5)
                    out.push(name(e) + ' (right edge ' + Math.round(r.right) + ')');
            }
            // text that does not wrap (a long word or URL) sticks out of an element that fits
            const walk = document.createTreeWalker(document.body || de, NodeFilter.SHOW_TEXT);
            for (let n; (n = walk.nextNode());) {
                const range = document.createRange(); range.selectNodeContents(n);
                const r = range.getBoundingClientRect(), p = n.parentElement.getBoundingClientRect();
                if (r.width > 0 && r.right > cw + 0.5 && p.right <= cw + 0.5)
                    out.push('text ' + JSON.stringify(n.data.trim().slice(0, 40)) + ' in ' + name(n.parentElement) +
                             ' (right edge ' + Math.round(r.right) + ')');
            }
            return {scrollWidth: de.scrollWidth, clientWidth: cw, culprits: out.slice(0, 3)};
        })()""")

    def small_text(self, min_px):
        """Text drawn smaller than min_px: the computed font size times the scale of an SVG's viewBox."""
        return self.eval(r"""((min) => {
            const out = [];
            const walk = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
            for (let n; (n = walk.nextNode());) {
                const e = n.parentElement;
                if (!n.data.trim() || !e || !e.getClientRects().length) continue;
                let size = parseFloat(getComputedStyle(e).fontSize);
                const m = e instanceof SVGGraphicsElement ? e.getScreenCTM() : null;
                if (m) size *= Math.hypot(m.a, m.b);
                if (size < min - 0.01)
                    out.push(e.tagName.toLowerCase() + (e.getAttribute('class') ? '.' + e.getAttribute('class').split(' ')[0] : '') +
                             ' ' + size.toFixed(1) + 'px ' + JSON.stringify(n.data.trim().slice(0, 30)));
            }
            return out;
        })(%s)""" % float(min_px))

    def image_problems(self):
        """Images drawn in another shape than their width/height attributes reserve, and broken images without a
        visible placeholder (at least 48 px tall, the alt text drawn by ::after)."""
        return self.eval(r"""(() => {
            const out = [];
            for (const i of document.images) {
                const r = i.getBoundingClientRect(), w = +i.getAttribute('width'), h = +i.getAttribute('height');
                const label = 'img ' + JSON.stringify(i.alt.slice(0, 30));
                if (!r.width) continue;
                if (w > 0 && h > 0 && Math.abs(r.height / r.width - h / w) > 0.02 * (h / w) + 1 / r.width)
                    out.push(label + ' reserves ' + w + 'x' + h + ' but is drawn ' + Math.round(r.width) + 'x' + Math.round(r.height));
                if (i.naturalWidth === 0) {
                    if (r.height < 48) out.push(label + ' is broken and drawn ' + Math.round(r.height) + ' px tall');
                    // the computed content is a CSS string: quoted, with backslash escapes
                    const after = getComputedStyle(i, '::after').content.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1');
                    if (i.alt && !after.includes(i.alt)) out.push(label + ' is broken and does not show its alt text');
                }
            }
            return out;
        })()""")

    def card_problems(self):
        """Fanout's post cards: the heart shares the likes' line, and the likes keep clear of the card's border."""
        return self.eval(r"""(() => {
            const out = [];
            for (const card of document.querySelectorAll('article.post')) {
                const likes = card.querySelector(':scope > .post-likes'), heart = card.querySelector(':scope > .post-footer');
                const key = card.dataset.post || '?';
                if (!likes) continue;
                const l = likes.getBoundingClientRect(), c = card.getBoundingClientRect();
                const text = document.createRange(); text.selectNodeContents(likes);
                const t = text.getBoundingClientRect();
                if (c.bottom - parseFloat(getComputedStyle(card).borderBottomWidth) - t.bottom < 4)
                    out.push('post ' + key + ': the likes touch the card\'s border');
                if (heart) {
                    const h = heart.getBoundingClientRect(), middle = (h.top + h.bottom) / 2;
                    if (middle < l.top || middle > l.bottom) out.push('post ' + key + ': the heart is not on the likes\' line');
                }
            }
            return out;
        })()""")

    def screenshot(self, path, full_page=True, max_height=0):
        params = {"format": "png"}
        if full_page:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            height = min(size["height"], max_height) if max_height else size["height"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": height, "scale": 1})
        data = self.call("Page.captureScreenshot", params)["data"]
        Path(path).write_bytes(base64.b64decode(data))


# ---------------------------------------------------------------------------------------------
def die(msg):
    print(f"axe_check: {msg}", file=sys.stderr)
    sys.exit(2)


def find_axe(explicit):
    for cand in (explicit, os.environ.get("AXE_JS")):
        if cand:
            if not Path(cand).is_file():
                die(f"no such file: {cand}")
            return Path(cand)
    import importlib.util
    spec = importlib.util.find_spec("axe_playwright_python")   # imports nothing: the package needs no playwright for this
    if spec and spec.origin:
        p = Path(spec.origin).parent / "axe.min.js"
        if p.exists():
            return p
    die("no axe.min.js: pip install --no-deps axe-playwright-python==0.1.8, or pass --axe FILE")


def find_chromium(explicit):
    chosen = explicit or os.environ.get("CHROMIUM")
    if chosen:
        return shutil.which(chosen) or die(f"no such browser: {chosen}")
    for cand in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(cand):
            return shutil.which(cand)
    die("no Chromium: apt-get install chromium, or pass --chromium BIN")


def sample(files, n):
    """index.html and report.html at the folder's top when present, then files spread evenly over the rest."""
    if not n or len(files) <= n:
        return files
    first = [f for f in files if f.parent == files[0].parent and f.name in ("index.html", "report.html")]
    rest = [f for f in files if f not in first]
    k = max(0, n - len(first))
    return first + [rest[i * len(rest) // k] for i in range(k)] if k else first[:n]


def html_files(paths, n=0):
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.html") if q.is_file())
            top = [q for q in found if q.parent == p]
            out += sample(top + [q for q in found if q.parent != p], n)
        elif p.is_file():
            out.append(p)
        else:
            die(f"no such file or folder: {p}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="axe-core on local HTML pages in headless Chromium")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--axe")
    ap.add_argument("--chromium")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--fail-on", default="serious", choices=IMPACTS + ["none"])
    ap.add_argument("--overflow", default="", help="comma-separated widths, e.g. 360,390")
    ap.add_argument("--fail-overflow", action="store_true")
    ap.add_argument("--min-font", type=float, default=0)
    ap.add_argument("--images", action="store_true")
    ap.add_argument("--cards", action="store_true")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--screenshots")
    ap.add_argument("--shot-widths", default="390,1280")
    ap.add_argument("--shot-height", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)

    files = html_files(a.paths, a.sample)
    if not files:
        die("no .html files")
    axe_js = find_axe(a.axe).read_text(encoding="utf-8")
    fail_at = len(IMPACTS) if a.fail_on == "none" else IMPACTS.index(a.fail_on)
    overflow_widths = [int(w) for w in a.overflow.split(",") if w.strip()]
    shot_widths = [int(w) for w in a.shot_widths.split(",") if w.strip()] if a.screenshots else []
    if a.screenshots:
        Path(a.screenshots).mkdir(parents=True, exist_ok=True)
    roots = [Path(p).resolve() for p in a.paths if Path(p).is_dir()]

    t0 = time.monotonic()
    try:
        browser = Chromium(find_chromium(a.chromium), timeout=a.timeout)
    except (BrowserError, OSError) as e:
        print(f"axe_check: cannot start Chromium: {e}", file=sys.stderr)
        return 2
    counts = {i: 0 for i in IMPACTS}
    axe_version = "?"
    failing_pages, overflowing, report = 0, 0, {}

    def layout_checks(page, width, lines):
        """--min-font and --images at the current width; True when one fails."""
        problems = []
        if a.min_font:
            small = page.small_text(a.min_font)
            if small:
                problems.append(f"  text below {a.min_font:g}px @{width}px ({len(small)}): {', '.join(small[:3])}")
        if a.images:
            problems += [f"  image @{width}px: {p}" for p in page.image_problems()[:3]]
        if a.cards:
            problems += [f"  card @{width}px: {p}" for p in page.card_problems()[:3]]
        lines += problems
        return bool(problems)
    try:
        page = browser.new_page()
        for f in files:
            url = f.resolve().as_uri()
            rel = next((str(f.resolve().relative_to(r)) for r in roots if f.resolve().is_relative_to(r)), str(f))
            lines, page_fails, page_overflows = [], False, False

            for w in overflow_widths:
                page.set_viewport(w, 800)
                page.goto(url)
                page_fails |= layout_checks(page, w, lines)
                o = page.overflow()
                if o["scrollWidth"] > o["clientWidth"]:
                    page_overflows = True
                    page_fails |= a.fail_overflow
                    lines.append(f"  overflow @{w}px: scrollWidth {o['scrollWidth']} > clientWidth {o['clientWidth']}"
                                 + (f"; sticking out: {', '.join(o['culprits'])}" if o["culprits"] else ""))
            for w in shot_widths:
                page.set_viewport(w, 800)
                page.goto(url)
                name = rel.replace(os.sep, "__").removesuffix(".html") + f"@{w}.png"
                page.screenshot(Path(a.screenshots) / name, max_height=a.shot_height)

            page.set_viewport(a.width, 900)
            page.goto(url)
            if not overflow_widths:
                page_fails |= layout_checks(page, a.width, lines)
            axe_version = page.eval(axe_js + ";axe.version")
            violations = page.eval(
                # target-size (WCAG 2.2, 2.5.8) is off in axe's defaults; pagination links must pass it too
                "axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}})"
                ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                " helpUrl: v.helpUrl, nodes: v.nodes.map(n => ({target: n.target, html: n.html,"
                " summary: n.failureSummary}))})))", timeout=max(a.timeout, 120))
            violations.sort(key=lambda v: -IMPACTS.index(v["impact"] or "minor"))
            report[rel] = violations
            for v in violations:
                imp = v["impact"] or "minor"
                counts[imp] += 1
                bad = IMPACTS.index(imp) >= fail_at
                page_fails |= bad
                targets = ", ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
                more = f" (+{len(v['nodes']) - 3} more)" if len(v["nodes"]) > 3 else ""
                lines.append(f"  {'FAIL' if bad else 'note'} {imp:<8} {v['id']}: {v['help']} "
                             f"[{len(v['nodes'])} node(s): {targets}{more}]")
            failing_pages += page_fails
            overflowing += page_overflows
            if lines and (page_fails or not a.quiet):
                print(f"{rel}:")
                print("\n".join(lines))
            elif not a.quiet:
                print(f"{rel}: no violations")
    except BrowserError as e:
        print(f"axe_check: {e}", file=sys.stderr)
        return 2
    finally:
        browser.close()

    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    summary = ", ".join(f"{counts[i]} {i}" for i in reversed(IMPACTS))
    extra = f", {overflowing} page(s) scroll horizontally" if overflow_widths else ""
    print(f"axe-core {axe_version} in {browser.version} at {a.width}px, {len(files)} page(s) in "
          f"{time.monotonic() - t0:.1f}s: {summary} rule violations{extra}; "
          f"{failing_pages} page(s) failing (--fail-on {a.fail_on})")
    return 1 if failing_pages else 0


if __name__ == "__main__":
    sys.exit(main())
