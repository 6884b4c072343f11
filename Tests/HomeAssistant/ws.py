"""Home Assistant's websocket API, for what its REST API does not say (ha.py runs this with Home
Assistant's own Python, for its aiohttp): sends each command in turn, prints their results as
one JSON list.

    python ws.py URL TOKEN COMMANDS.json    # [{"type": "config/entity_registry/get", "entity_id": "…"}, …]
"""
import asyncio
import json
import sys

import aiohttp


async def main(url: str, token: str, commands: list[dict]) -> int:
    async with aiohttp.ClientSession() as http, http.ws_connect(url.replace("http", "ws", 1) + "/api/websocket") as ws:
        assert (await ws.receive_json())["type"] == "auth_required"
        await ws.send_json({"type": "auth", "access_token": token})
        if (m := await ws.receive_json())["type"] != "auth_ok":
            print(f"ws: {m}", file=sys.stderr)
            return 1
        results = []
        for n, command in enumerate(commands, 1):
            await ws.send_json({"id": n, **command})
            while (m := await ws.receive_json()).get("id") != n:
                pass
            results.append(m.get("result") if m.get("success") else {"error": m.get("error")})
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    with open(sys.argv[3]) as f:
        sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], json.load(f))))
