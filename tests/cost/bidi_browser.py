"""Headless Firefox driven through WebDriver BiDi, which Firefox speaks
natively on a websocket when started with --remote-debugging-port (no
geckodriver), with Python's standard library only (a minimal websocket
client below); pages offer the same calls as cdp_browser.Page:

    with Browser.start() as b:       # None when no firefox-esr is installed
        page = b.new_page(1400, 900)
        page.load("file:///.../report.html")
        page.eval("document.title")
        page.click(selector); page.key("Enter", ...); page.screenshot("out.png")
        page.console_errors()        # console errors, exceptions, refused requests
"""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time

from browser_link import Clicks, Link, ProtocolError, save_base64


def find_firefox():
    for name in ("firefox-esr", "firefox"):
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    """RFC 6455, client side, text frames only: what BiDi needs."""

    def __init__(self, host, port, path):
        self.sock = socket.create_connection((host, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ProtocolError("websocket: the browser closed the handshake")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ProtocolError(f"websocket: {head.splitlines()[0].decode(errors='replace')}")
        self.sock.settimeout(None)
        self.lock = threading.Lock()

    def send(self, text):
        data = text.encode()
        n = len(data)
        head = bytes([0x81])  # FIN, text
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data)) if n < 4096 else _mask(data, mask)
        with self.lock:
            self.sock.sendall(head + mask + masked)

    def _exactly(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next whole message's text (continuations joined); EOFError
        when the browser is gone."""
        parts = []
        while True:
            b0, b1 = self._exactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exactly(8))[0]
            payload = self._exactly(n)  # a server does not mask
            op = b0 & 0x0F
            if op == 0x8:
                raise EOFError
            if op in (0x9, 0xA):  # ping, pong: BiDi servers do not need an answer
                continue
            parts.append(payload)
            if b0 & 0x80:
                return b"".join(parts).decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def _mask(data, mask):
    # Large frames: XOR through one big integer instead of byte by byte.
    n = len(data)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


# A fresh profile, quiet: no first-run pages, no updates, nothing fetched.
PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "app.update.disabledForTesting": True,
    "network.captive-portal-service.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
    "font.name.monospace.x-western": "DejaVu Sans Mono",
}


class Browser(Link):
    def __init__(self, exe):
        super().__init__()
        self.profile = tempfile.mkdtemp(prefix="cost-html-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for k, v in PREFS.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        env = dict(os.environ, MOZ_HEADLESS="1", HOME=self.profile)
        self.proc = subprocess.Popen([exe, "--headless", "--no-remote", "--profile", self.profile,
                                      "--remote-debugging-port", "0", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        port = None
        deadline = time.time() + 60
        for line in self.proc.stderr:  # Firefox names the port it chose
            m = re.search(rb"WebDriver BiDi listening on ws://([\d.]+):(\d+)", line)
            if m:
                port = int(m.group(2))
                break
            if time.time() > deadline:
                break
        if not port:
            self.proc.kill()
            raise ProtocolError("firefox: no WebDriver BiDi port announced")
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        self.ws = WebSocket("127.0.0.1", port, "/session")
        threading.Thread(target=self._read, daemon=True).start()
        caps = self.send("session.new", {"capabilities": {}}).get("capabilities", {})
        self.version = f"{caps.get('browserName', 'firefox')} {caps.get('browserVersion', '?')}"
        self.send("session.subscribe", {"events": ["log.entryAdded", "network.beforeRequestSent"]})

    @classmethod
    def start(cls):
        exe = find_firefox()
        return cls(exe) if exe else None

    def _read(self):
        while True:
            try:
                msg = json.loads(self.ws.recv())
            except (EOFError, OSError):
                self._closed()
                return
            self._deliver(msg)

    def send(self, method, params=None, timeout=60):
        reply = self._call(method, lambda mid: self.ws.send(json.dumps({"id": mid, "method": method,
                                                                         "params": params or {}})), timeout)
        if reply.get("type") == "error":
            raise ProtocolError(f"{method}: {reply.get('error')}: {reply.get('message')}")
        return reply.get("result", {})

    def new_page(self, width, height):
        context = self.send("browsingContext.create", {"type": "tab"})["context"]
        return Page(self, context, width, height)

    def close(self):
        try:
            self.send("browser.close", timeout=10)
        except ProtocolError:
            pass
        self.ws.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# WebDriver's key values for the keys the tests press.
KEYS = {"Enter": "\ue007", "Tab": "\ue004", "Escape": "\ue00c"}


class Page(Clicks):
    def __init__(self, browser, context, width, height):
        self.b = browser
        self.c = context
        self.log = []  # (kind, text) as cdp_browser.Page records them
        self.b.send("browsingContext.setViewport",
                    {"context": context, "viewport": {"width": width, "height": height}, "devicePixelRatio": 1})

    def send(self, method, params=None, timeout=60):
        return self.b.send(method, dict(params or {}, context=self.c), timeout)

    def _drain(self):
        for e in self.b.events():
            m, p = e.get("method"), e.get("params", {})
            if m == "log.entryAdded" and p.get("source", {}).get("context") in (self.c, None):
                if p.get("level") == "error" or (p.get("type") == "console" and p.get("method") == "assert"):
                    kind = "exception" if p.get("type") == "javascript" else "console." + p.get("method", "error")
                    self.log.append((kind, p.get("text")))
            elif m == "network.beforeRequestSent" and p.get("context") == self.c:
                url = p["request"]["url"]
                if not url.startswith(("file:", "data:", "about:", "blob:")):
                    self.log.append(("request", url))

    def load(self, url, ready="document.body && document.body.dataset.ready === '1'", timeout=120):
        """Navigates, waits for the load event and for `ready`; returns the
        wall time in ms from the navigation to `ready`."""
        self._drain()
        t0 = time.time()
        self.send("browsingContext.navigate", {"url": url, "wait": "complete"}, timeout)
        while time.time() < t0 + timeout:
            if self.eval(ready):
                return (time.time() - t0) * 1000
            time.sleep(0.01)
        raise ProtocolError(f"{url}: not ready in {timeout} s")

    def eval(self, expr, timeout=60):
        # Values come back as JSON text: BiDi's own serialization nests
        # every array and object in type/value records.
        wrapped = f"(async () => JSON.stringify(await ({expr})))()"
        r = self.b.send("script.evaluate", {"expression": wrapped, "target": {"context": self.c},
                                            "awaitPromise": True, "resultOwnership": "none"}, timeout)
        if r.get("type") == "exception":
            d = r.get("exceptionDetails", {})
            raise ProtocolError(f"{expr[:80]}: {d.get('text')}")
        v = r["result"]
        return json.loads(v["value"]) if v.get("type") == "string" else None

    def _actions(self, source):
        self.b.send("input.performActions", {"context": self.c, "actions": [source]})

    def click_at(self, x, y):
        self._actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                       "actions": [{"type": "pointerMove", "x": int(x), "y": int(y), "origin": "viewport"},
                                   {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def key(self, key, code=None, keycode=None):
        v = KEYS.get(key, key)
        self._actions({"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": v},
                                                                    {"type": "keyUp", "value": v}]})

    def screenshot(self, path, full=False):
        data = self.send("browsingContext.captureScreenshot", {"origin": "document" if full else "viewport"})["data"]
        save_base64(path, data)

    def pdf(self, path):
        data = self.send("browsingContext.print", {"background": True}, timeout=120)["data"]
        save_base64(path, data)

    def console_errors(self):
        # Events arrive on their own thread: a command's round trip makes
        # sure those the page caused so far are in.
        self.b.send("script.evaluate", {"expression": "0", "target": {"context": self.c}, "awaitPromise": False})
        self._drain()
        return list(self.log)
