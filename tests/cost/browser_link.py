"""What the two browser clients share (cdp_browser.py, Chromium's DevTools
pipe; bidi_browser.py, Firefox's WebDriver BiDi): numbered commands whose
replies a reader thread hands over, queued events, and a real mouse click on
an element found by selector."""

import base64
import json
import queue
import threading
import time


class ProtocolError(Exception):
    pass


class Link:
    def __init__(self):
        self._next_id = 0
        self._replies = {}
        self._events = queue.Queue()
        self._cond = threading.Condition()

    def _deliver(self, msg):
        """The reader thread's: a reply to its waiting command, or an event."""
        if msg.get("id") is None:
            self._events.put(msg)
            return
        with self._cond:
            self._replies[msg["id"]] = msg
            self._cond.notify_all()

    def _closed(self):
        with self._cond:
            self._replies[None] = True  # the browser is gone
            self._cond.notify_all()

    def _call(self, method, write, timeout):
        """write(id) sends the command numbered id; returns its reply."""
        with self._cond:
            self._next_id += 1
            mid = self._next_id
        write(mid)
        deadline = time.time() + timeout
        with self._cond:
            while mid not in self._replies:
                if None in self._replies:
                    raise ProtocolError(f"{method}: the browser exited")
                left = deadline - time.time()
                if left <= 0:
                    raise ProtocolError(f"{method}: no reply in {timeout} s")
                self._cond.wait(left)
            return self._replies.pop(mid)

    def events(self):
        out = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out


class Clicks:
    """For a page class with eval(expr) and click_at(x, y)."""

    def click(self, selector):
        """A real mouse click in the middle of the first element matching
        `selector`, scrolled into view; False when there is none."""
        box = self.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'center'}});
            const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if not box:
            return False
        self.click_at(box[0], box[1])
        return True


def save_base64(path, data):
    """A screenshot or PDF as both protocols return it, into path."""
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))
