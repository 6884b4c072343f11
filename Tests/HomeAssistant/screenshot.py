"""A screenshot of one Home Assistant page once a card on it has rendered (ha.py runs this with
Home Assistant's own Python, for its aiohttp). Chromium runs on the host with a DevTools port;
its `--screenshot` alone shoots the page before the frontend's websocket has brought any state.

    python screenshot.py DEVTOOLS_PORT URL ELEMENT OUT.png [TIMEOUT_S]   (the page at the timeout: OUT.png.failed.png)

ELEMENT is a custom element's tag (searched through every shadow root) that must be on the page,
with something drawn inside it, before the shot.
"""
import asyncio
import base64
import sys
import time

import aiohttp

# True once an element with this tag is in the document (through shadow roots) and drawn.
FIND = """
(tag => {
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === tag && el.getBoundingClientRect().height > 40) return true;
      if (el.shadowRoot && walk(el.shadowRoot)) return true;
    }
    return false;
  };
  return walk(document);
})(%r)
"""


async def main(port: int, url: str, element: str, out: str, timeout: float) -> int:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/json/list") as r:
            page = next(t for t in await r.json() if t["type"] == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            ids = iter(range(1, 1_000_000))

            async def call(method, **params):
                n = next(ids)
                await ws.send_json({"id": n, "method": method, "params": params})
                while True:
                    m = await ws.receive_json()
                    if m.get("id") == n:
                        if "error" in m:
                            raise RuntimeError(f"{method}: {m['error']}")
                        return m.get("result", {})

            await call("Page.enable")
            await call("Page.navigate", url=url)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                r = await call("Runtime.evaluate", expression=FIND % element, returnByValue=True)
                if r.get("result", {}).get("value") is True:
                    break
                await asyncio.sleep(0.5)
            else:
                # The page as it is, to see why.
                shot = await call("Page.captureScreenshot", format="png")
                with open(out + ".failed.png", "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                print(f"screenshot: no drawn <{element}> after {timeout:.0f} s (the page then: {out}.failed.png)", file=sys.stderr)
                return 1
            # The card's own content (its entities' rows, icons) settles within a moment.
            await asyncio.sleep(2)
            shot = await call("Page.captureScreenshot", format="png")
            with open(out, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
    return 0


if __name__ == "__main__":
    port, url, element, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    sys.exit(asyncio.run(main(port, url, element, out, float(sys.argv[5]) if len(sys.argv) > 5 else 60)))
