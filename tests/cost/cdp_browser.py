"""Headless Chromium driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4),
with Python's standard library only: no driver, no websocket, no network.

    with Browser.start() as b:       # None when no chromium is installed
        page = b.new_page(1400, 900)
        page.load("file:///.../report.html")
        page.eval("document.title")
        page.click_at(x, y); page.screenshot("out.png")
        page.console_errors()        # console errors, exceptions, refused requests
"""

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

from browser_link import Clicks, Link, ProtocolError, save_base64

# The flags this machine needs (no sandbox in a container, no GPU, nothing
# fetched in the background), and a fresh profile per start.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _move_above(fd, low):
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, low)
    os.close(fd)
    return high


class Browser(Link):
    def __init__(self, exe):
        super().__init__()
        self.profile = tempfile.mkdtemp(prefix="cost-html-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # bash puts the pipes on 3 and 4, where Chromium looks for them; from
        # 10 and above, so neither redirection overwrites the other's source.
        to_chrome_r = _move_above(to_chrome_r, 10)
        from_chrome_w = _move_above(from_chrome_w, 10)
        script = f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w} {to_chrome_r}<&- {from_chrome_w}>&-'
        args = FLAGS + [f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(["bash", "-c", script, exe] + args, pass_fds=(to_chrome_r, from_chrome_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def start(cls):
        exe = find_chromium()
        return cls(exe) if exe else None

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                self._closed()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                self._deliver(json.loads(raw))

    def send(self, method, params=None, session=None, timeout=60):
        def write(mid):
            msg = {"id": mid, "method": method, "params": params or {}}
            if session:
                msg["sessionId"] = session
            os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")

        reply = self._call(method, write, timeout)
        if "error" in reply:
            raise ProtocolError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def new_page(self, width, height):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session, width, height)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except ProtocolError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page(Clicks):
    def __init__(self, browser, session, width, height):
        self.b = browser
        self.s = session
        self.log = []  # (kind, text) of console errors, exceptions, requests
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def send(self, method, params=None, timeout=60):
        return self.b.send(method, params, self.s, timeout)

    def _drain(self):
        loaded = False
        for e in self.b.events():
            if e.get("sessionId") != self.s:
                continue
            m, p = e["method"], e.get("params", {})
            if m == "Page.loadEventFired":
                loaded = True
            elif m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                self.log.append(("exception", d.get("exception", {}).get("description") or d.get("text")))
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert", "warning"):
                self.log.append(("console." + p["type"], " ".join(str(a.get("value", a.get("description"))) for a in p["args"])))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                self.log.append(("log", p["entry"]["text"]))
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if not url.startswith(("file:", "data:", "about:", "blob:")):
                    self.log.append(("request", url))
        return loaded

    def load(self, url, ready="document.body && document.body.dataset.ready === '1'", timeout=120):
        """Navigates and waits for the load event and for `ready`; returns the
        wall time in ms from the navigation to `ready`."""
        self._drain()
        t0 = time.time()
        self.send("Page.navigate", {"url": url})
        deadline = t0 + timeout
        loaded = False
        while time.time() < deadline:
            loaded = self._drain() or loaded
            if loaded and self.eval(ready):
                return (time.time() - t0) * 1000
            time.sleep(0.01)
        raise ProtocolError(f"{url}: not ready in {timeout} s")

    def eval(self, expr, timeout=60):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True}, timeout)
        if "exceptionDetails" in r:
            raise ProtocolError(f"{expr[:80]}: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def click_at(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def key(self, key, code, keycode):
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode})

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params)["data"]
        save_base64(path, data)

    def pdf(self, path):
        data = self.send("Page.printToPDF", {"printBackground": True}, timeout=120)["data"]
        save_base64(path, data)

    def console_errors(self):
        self._drain()
        return list(self.log)
