#!/usr/bin/env python3
"""Drives the board in headless Chromium over the DevTools protocol and checks it against the
API: the rendered move list, a move made by clicking the board, the value after it, the
perfect player's replies, the no-capture rule's colours; saves screenshots.

Only the standard library: Chromium is started with --remote-debugging-pipe, which speaks the
protocol as NUL-terminated JSON over file descriptors 3 and 4 (no websocket, no port).
Every wait has a deadline; any failed check exits non-zero.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request

GASSER = "W:d7,g1,g7 B:a4,d5,g4 b 0 0"


class Browser:
    def __init__(self, binary):
        # Our ends: we write commands into `to_chrome`, read replies from `from_chrome`.
        cmd_r, cmd_w = os.pipe()
        out_r, out_w = os.pipe()

        def child_fds():
            # Copies first, so that neither end is overwritten by the other's dup2; the
            # copies made by dup2 survive exec (the pipes' own descriptors do not).
            a, b = os.dup(cmd_r), os.dup(out_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--remote-debugging-pipe", "--user-data-dir=" + os.environ.get("CHROME_PROFILE", "/tmp/morris-chrome"),
             "about:blank"],
            close_fds=False, preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(out_w)
        self.wfd, self.rfd = cmd_w, out_r
        self.buf = b""
        self.next_id = 0
        self.session = None

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})

    def open(self, width, height):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.size(width, height)

    def size(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def navigate(self, url, ready="document.body.dataset.busy === '0'"):
        self.send("Page.navigate", {"url": url})
        self.wait(f"document.readyState === 'complete' && document.body && {ready}")

    def wait(self, cond, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.eval(f"!!({cond})"):
                    return
            except RuntimeError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"waited {timeout}s for: {cond}")

    def click_at(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click(self, selector):
        r = self.eval(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " if (!e) return null; e.scrollIntoView({block: 'center'});"
                      " const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()")
        if r is None:
            raise AssertionError(f"nothing to click at {selector}")
        self.click_at(r[0], r[1])

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            h = self.eval("document.documentElement.scrollHeight")
            w = self.eval("document.documentElement.scrollWidth")
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        print(f"  screenshot {path}")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


FAILURES = []


def check(cond, what):
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def api(base, path, **params):
    url = base + path + "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def rendered_moves(b):
    return b.eval("[...document.querySelectorAll('#moves tbody tr')].map(r => "
                  "[r.dataset.move, r.dataset.value, r.dataset.plies])")


def expected_moves(answer):
    return [[m["move"], m["value"], "" if m["plies"] is None else str(m["plies"])] for m in answer["moves"]]


def stone_at(b, point):
    return b.eval(f"document.querySelector('[data-point=\"{point}\"]').getAttribute('aria-label')")


def status(b):
    return b.eval("[document.getElementById('status').dataset.value, document.getElementById('status').dataset.plies,"
                  " document.getElementById('status').textContent]")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--out", default="results")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()
    base = a.url.rstrip("/")
    os.makedirs(a.out, exist_ok=True)
    shot = lambda name: os.path.join(a.out, f"serve-{name}.png")
    b = Browser(a.chromium)
    try:
        b.open(1280, 900)
        q = {"game": "nine", "flying": "1", "stones": "3"}

        print("1. the board of a position and its move list")
        b.navigate(base + "/?" + urllib.parse.urlencode({**q, "position": GASSER}))
        ans = api(base, "/api/query", position=GASSER, **q)
        check(rendered_moves(b) == expected_moves(ans), f"the {len(ans['moves'])} moves listed are the API's, in its order")
        v = status(b)
        check(v[0] == "loss" and v[1] == "26", f"status says Black loses in 26: {v[2]!r}")
        check(stone_at(b, "d5") == "d5 black" and stone_at(b, "g1") == "g1 white", "stones drawn where the position has them")
        marks = b.eval("document.querySelectorAll('#board .ring').length")
        check(marks == 3, f"the three movable stones are ringed with their best value ({marks})")
        b.screenshot(shot("board"))

        print("2. a move by clicking the board")
        best = ans["moves"][0]
        b.click(f'[data-point="{best["from"]}"]')
        b.wait("window.morris.state().selected !== null")
        targets = b.eval("document.querySelectorAll('#board .mark-label').length")
        check(targets > 0, f"picking up {best['from']} marks its targets ({targets})")
        b.screenshot(shot("selected"))
        b.click(f'[data-point="{best["to"]}"]')
        b.wait(f"document.body.dataset.busy === '0' && window.morris.state().history.length === 1")
        after = api(base, "/api/query", position=best["position"], **q)
        check(stone_at(b, best["to"]) == f"{best['to']} black" and stone_at(b, best["from"]) == f"{best['from']} empty",
              f"{best['move']} moved the stone")
        v = status(b)
        check(v[0] == after["value"] == "win" and v[1] == str(after["plies"]) == "25",
              f"the value updated to White wins in 25: {v[2]!r}")
        check(rendered_moves(b) == expected_moves(after), "the new move list is the API's")
        check(urllib.parse.parse_qs(urllib.parse.urlparse(b.eval("location.href")).query)["position"][0] == after["position"],
              "the URL holds the new position")

        print("3. the perfect player replies")
        b.eval("(() => { const s = document.getElementById('computer'); s.value = 'white';"
               " s.dispatchEvent(new Event('change')); })()")
        for rnd in range(3):
            n = 2 + 2 * rnd
            b.wait(f"document.body.dataset.busy === '0' && window.morris.state().history.length === {n}", timeout=20)
            pos = b.eval("window.morris.state().pos")
            ans = api(base, "/api/query", position=pos, **q)
            v = status(b)
            check(v[0] == "loss" and v[1] == str(ans["plies"]) and ans["plies"] == 26 - 2 * (rnd + 1),
                  f"after White's perfect reply Black still loses, now in {ans['plies']}: {v[2]!r}")
            check(rendered_moves(b) == expected_moves(ans), "move list matches the API")
            # Black plays its best move from the list, by clicking the row.
            b.click("#moves tbody tr:first-child")
            b.wait(f"window.morris.state().history.length >= {n + 1}")
        b.wait("document.body.dataset.busy === '0' && window.morris.state().history.length === 8")
        hist = b.eval("[...document.querySelectorAll('#history li')].length")
        check(hist == 8, f"the history lists the 8 plies played ({hist})")
        b.screenshot(shot("play"))
        b.eval("(() => { const s = document.getElementById('computer'); s.value = 'none';"
               " s.dispatchEvent(new Event('change')); })()")
        b.click("#undo")
        b.wait("document.body.dataset.busy === '0' && window.morris.state().history.length === 7")
        check(b.eval("window.morris.state().redo.length") == 1, "undo keeps the move for redo")

        print("4. the no-capture rule")
        rq = {**q, "moves_without_capture": "8", "counter": "3"}
        b.navigate(base + "/?" + urllib.parse.urlencode({**rq, "position": GASSER}))
        ans = api(base, "/api/query", position=GASSER, **rq)
        check(rendered_moves(b) == expected_moves(ans), "moves under the rule are the API's")
        cats = b.eval("[...document.querySelectorAll('#moves tbody td.val')].map(t => t.className)")
        check(any("blessed-loss" in c for c in cats), "blessed losses are coloured as such")
        check(ans["category"] == "blessed-loss" and status(b)[0] == "draw", "status: a draw at counter 3 (blessed loss)")
        b.screenshot(shot("rule"))

        print("5. Three Men's Morris and the statistics page")
        b.navigate(base + "/?game=three&position=startpos")
        ans = api(base, "/api/query", game="three", position="startpos")
        check(rendered_moves(b) == expected_moves(ans), "Three Men's Morris: moves are the API's")
        check(b.eval("document.querySelectorAll('[data-point]').length") == 9, "a 3x3 board of 9 points")
        b.click('[data-point="b2"]')
        b.wait("document.body.dataset.busy === '0' && window.morris.state().history.length === 1")
        check(stone_at(b, "b2") == "b2 white", "placing on b2 by a click")
        b.screenshot(shot("three"))
        b.size(1280, 1000)
        b.navigate(base + "/stats?stones=3", ready="document.querySelector('main') !== null")
        check(b.eval("document.querySelectorAll('svg').length") > 3, "the statistics page draws its charts")
        b.screenshot(shot("stats"), full=True)
    finally:
        b.close()
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        sys.exit(1)
    print("all browser checks passed")


if __name__ == "__main__":
    main()
