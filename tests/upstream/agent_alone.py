"""An agent alone: drives `codemode serve` (stdio) with the official MCP Python SDK over a
world whose MCP servers were never synced, and edits `.codemode/mcp.json` while it serves.
Nobody runs `codemode mcp sync`; everything the agent needs comes through MCP.

Usage: agent_alone.py BIN SERVERS_DIR

SERVERS_DIR is where tests/upstream/setup.sh installed the reference servers. Prints one
JSON line of timings on success; raises (exit 1) at the first broken expectation.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from sdk_agent import Announcements, description, exec_, save_whole  # noqa: E402

BIN, SERVERS = sys.argv[1], Path(sys.argv[2]).resolve()
EVERYTHING = SERVERS / "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
TIME_SERVER = SERVERS / "venv/bin/mcp-server-time"
# Marks the time server's process, so the test can tell it is gone when its entry is.
MARK = uuid.uuid4().hex


def everything() -> dict:
    return {"command": "node", "args": [str(EVERYTHING), "stdio"]}


def clock() -> dict:
    return {"command": str(TIME_SERVER), "env": {"CODEMODE_TEST_MARK": MARK}}


def write_config(world: Path, servers: dict) -> None:
    save_whole(world / ".codemode" / "mcp.json", {"mcpServers": servers})


def marked_processes() -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if f"CODEMODE_TEST_MARK={MARK}".encode() in environ:
            found.append(int(pid))
    return found


def errors_in(env: dict) -> list:
    return [d for d in env.get("diagnostics", []) if d.get("severity") == "error"]


async def first_search() -> None:
    """An agent's first call is a search, a moment after the server started: the servers
    still being fetched in the background are waited for, not left out."""
    world = Path(tempfile.mkdtemp(prefix="codemode-first-"))
    try:
        (world / ".codemode").mkdir()
        write_config(world, {"clock": clock(), "everything": everything()})
        params = StdioServerParameters(command=BIN, args=["serve", "--world", str(world)])
        async with Client(params, mode="legacy") as c:
            found = await c.call_tool("search_tools", {"query": "current time in a time zone"})
            rows = json.loads(found.content[0].text)["value"]
            names = [r["identity"] for r in rows]
            assert "clock.get_current_time" in names, rows
    finally:
        shutil.rmtree(world, ignore_errors=True)


async def main() -> None:
    await first_search()
    world = Path(tempfile.mkdtemp(prefix="codemode-alone-"))
    timings: dict[str, float] = {}
    try:
        (world / ".codemode").mkdir()
        write_config(world, {"everything": everything()})
        heard = Announcements()
        params = StdioServerParameters(command=BIN, args=["serve", "--world", str(world)])
        async with Client(params, mode="legacy", message_handler=heard.handler) as c:
            # 1. Never synced: the first script calls the server's tool, and succeeds
            # with nothing but a value (no checker noise).
            first = await exec_(c, "return tools.everything.get_sum({a = 2, b = 3})")
            assert first["ok"] and first["value"] == "The sum of 2 and 3 is 5.", first
            assert errors_in(first) == [], first
            assert "everything (MCP)" in await description(c)

            # The declarations followed the fetch: the checker knows the server's tools,
            # so a misspelt one is named as such (not typed `any`, as before the fetch).
            wrong = await exec_(c, "return tools.everything.get_summ({a = 2, b = 3})")
            assert not wrong["ok"] and "get_sum" in wrong["error"]["hint"], wrong
            assert any("get_summ" in d["message"] for d in errors_in(wrong)), wrong
            listed = await exec_(c, "return #tools.list('everything', 3).value")
            assert listed["ok"] and listed["value"] >= 5, listed

            # 2. A server added while serving: announced, named in the description, and
            # callable by the next script, side by side.
            timings["added_announced_s"] = await heard.after(
                lambda: write_config(world, {"everything": everything(), "clock": clock()})
            )
            assert "clock (MCP)" in await description(c)
            both = await exec_(
                c,
                """
                local zones = tools.parallel({
                    function() return tools.clock.get_current_time({timezone = "Asia/Tokyo"}) end,
                    function() return tools.clock.get_current_time({timezone = "Europe/Paris"}) end,
                })
                return {zones[1].ok, zones[2].ok, zones[1].value.timezone, zones[2].value.timezone}
                """,
            )
            assert both["ok"], both
            assert both["value"] == [True, True, "Asia/Tokyo", "Europe/Paris"], both
            assert errors_in(both) == [], both
            assert marked_processes(), "the added server is not running"

            # 3. A broken edit keeps the last good configuration.
            part = world / ".codemode" / "mcp.json.part"
            part.write_text('{"mcpServers": {"clock": ')
            part.rename(world / ".codemode" / "mcp.json")
            await asyncio.sleep(1.0)
            kept = await exec_(c, "return tools.clock.get_current_time({timezone = 'UTC'}).timezone")
            assert kept["ok"] and kept["value"] == "UTC", kept

            # 4. A server removed while serving: announced, its process stopped, its
            # toolbox gone.
            timings["removed_announced_s"] = await heard.after(
                lambda: write_config(world, {"everything": everything()})
            )
            assert "clock (MCP)" not in await description(c)
            gone = await exec_(c, "return tools.clock.get_current_time({timezone = 'UTC'})")
            assert not gone["ok"] and "clock" in gone["error"]["message"], gone
            deadline = time.monotonic() + 5
            while marked_processes() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not marked_processes(), "the removed server still runs"
            still = await exec_(c, "return tools.everything.get_sum({a = 1, b = 1})")
            assert still["ok"] and "is 2" in still["value"], still
        print(json.dumps(timings), flush=True)
    finally:
        shutil.rmtree(world, ignore_errors=True)


asyncio.run(main())
