"""Real multi-touch through the Chrome DevTools protocol, and what the page shows."""

import struct
import zlib


class Touchscreen:
    """Fingers on the page's touchscreen via `Input.dispatchTouchEvent`.

    Chrome turns each dispatch into touch and pointer events, one per changed
    finger, as a real screen would. `down` and `move` name the fingers that are
    on the screen afterwards; `up` names the fingers that lift; `cancel`
    cancels every finger (the protocol cannot cancel just one).
    """

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.fingers = {}
        self.ids = {}

    def _send(self, kind, points):
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def _points(self):
        return [{"id": finger, "x": x, "y": y} for finger, (x, y) in self.fingers.items()]

    def down(self, **fingers):
        """Puts fingers down together, e.g. `down(a=(10, 20), b=(30, 40))`."""
        for name, point in fingers.items():
            self.fingers[self._id(name)] = point
        self._send("touchStart", self._points())

    def move(self, **fingers):
        for name, point in fingers.items():
            self.fingers[self._id(name)] = point
        self._send("touchMove", self._points())

    def up(self, *names):
        points = [{"id": self._id(n), "x": self.fingers[self._id(n)][0], "y": self.fingers[self._id(n)][1]} for n in names]
        for name in names:
            del self.fingers[self._id(name)]
        self._send("touchEnd", points)

    def cancel(self):
        self.fingers.clear()
        self._send("touchCancel", [])

    def drag(self, name, start, end, steps=8):
        """One finger down at `start`, moving in steps to `end`; it stays down."""
        self.down(**{name: start})
        for step in range(1, steps + 1):
            t = step / steps
            self.move(**{name: (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)})

    def line(self, start, end, name="line"):
        """A whole line with one finger, delivered to the core before this returns."""
        self.drag(name, start, end)
        self.up(name)
        self.settle()

    def tap(self, point, name="tap"):
        self.down(**{name: point})
        self.up(name)
        self.settle(1)

    def _id(self, name):
        # The protocol's touch ids; the browser assigns its own pointer ids.
        return self.ids.setdefault(name, len(self.ids) + 1)

    # MARK: What the page shows

    def state(self):
        return self.page.evaluate("touchtracker.state()")

    def document(self, ids=False):
        """The page's drawing as a document; shapes without their ids unless `ids` (see `without_ids`)."""
        document = self.page.evaluate("touchtracker.document()")
        return document if ids else without_ids(document)

    def settle(self, frames=3):
        """Waits for animation frames: input is committed to the core once a frame."""
        self.page.evaluate(
            "n => new Promise(r => { const f = () => (n-- <= 0 ? r() : requestAnimationFrame(f)); f(); })", frames
        )

    def skip_time(self, seconds):
        """Moves the page's core clock ahead and lets the due timers fire, without sleeping."""
        self.page.evaluate("s => touchtracker.skipTime(s)", seconds)
        self.settle()

    def wait_for(self, expression, timeout=15_000):
        # Generous: on a loaded 2-core machine a page can take seconds to catch up; a real failure still fails.
        self.page.wait_for_function(expression, timeout=timeout)

    def pixel(self, x, y):
        """The (r, g, b) on screen at CSS point (x, y), from a screenshot."""
        png = self.page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, animations="disabled")
        return png_pixel(png)


def png_pixel(png):
    """The first pixel of a PNG (8-bit RGB or RGBA), without an imaging library."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, header, data = 8, None, b""
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        body = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    depth, color_type = header[2], header[3]
    assert depth == 8 and color_type in (2, 6), header
    channels = 3 if color_type == 2 else 4
    raw = zlib.decompress(data)
    # Row 0 is a filter byte, then pixels. Every filter predicts the first
    # pixel of the first row from zeros, so its bytes are the pixel itself.
    return tuple(raw[1 : 1 + channels][:3])


def without_ids(document):
    """What a person drew: the document with each shape's "id" left out, so a
    test can compare it with lines it spells out. Tests of ids read them."""
    if not isinstance(document, dict):
        return document
    strip = lambda shapes: [{k: v for k, v in shape.items() if k != "id"} for shape in shapes]
    return {**document, **{key: strip(document[key]) for key in ("lines", "circles") if key in document}}
