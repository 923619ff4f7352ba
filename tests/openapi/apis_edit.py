"""Edits of `.codemode/apis.json` while `codemode serve` runs, seen by an agent through the
official MCP Python SDK: an API added is announced (notifications/tools/list_changed),
named in tool_exec's description and called by the next script; an API removed is
announced and its toolbox is gone; a broken edit keeps what was read before.

Usage: apis_edit.py BIN PETS_SPEC TRAIN_SPEC TRAIN_URL

TRAIN_URL is a Prism mock server serving TRAIN_SPEC. Prints one JSON line of timings on
success; raises (exit 1) at the first broken expectation.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from sdk_agent import Announcements, description, exec_, save_whole  # noqa: E402

BIN, PETS, TRAIN, TRAIN_URL = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]


def write_apis(world: Path, apis: dict) -> None:
    save_whole(world / ".codemode" / "apis.json", {"apis": apis})


def pets() -> dict:
    return {"spec": PETS, "baseUrl": "http://127.0.0.1:9"}


def train() -> dict:
    return {"spec": TRAIN, "baseUrl": TRAIN_URL}


async def main() -> None:
    world = Path(tempfile.mkdtemp(prefix="codemode-apis-"))
    timings: dict[str, float] = {}
    try:
        (world / ".codemode").mkdir()
        write_apis(world, {"pets": pets()})
        heard = Announcements()
        params = StdioServerParameters(command=BIN, args=["serve", "--world", str(world)])
        async with Client(params, mode="legacy", message_handler=heard.handler) as c:
            listed = await exec_(c, "return #tools.list(1, 'pets').value")
            assert listed["ok"] and listed["value"] >= 3, listed
            absent = await exec_(c, "return tools.get('train.get_stations') == nil")
            assert absent["ok"] and absent["value"] is True, absent

            # 1. An API added while serving: announced, named, and called by the next
            # script (Prism answers 401 without a credential: the request was made).
            timings["added_announced_s"] = await heard.after(
                lambda: write_apis(world, {"pets": pets(), "train": train()})
            )
            assert " train" in await description(c), await description(c)
            called = await exec_(
                c,
                "local ok, e = pcall(tools.train.get_stations)\n"
                "return { ok = ok, error = tostring(e), count = #tools.list(1, 'train').value }",
            )
            assert called["ok"], called
            assert called["value"]["count"] >= 3, called
            assert "HTTP 401" in called["value"]["error"], called

            # 2. A broken edit keeps the APIs read before.
            part = world / ".codemode" / "apis.json.part"
            part.write_text('{"apis": {"train": ')
            part.rename(world / ".codemode" / "apis.json")
            await asyncio.sleep(1.0)
            kept = await exec_(c, "return #tools.list(1, 'train').value")
            assert kept["ok"] and kept["value"] >= 3, kept

            # 3. An API removed while serving: announced, its toolbox gone.
            timings["removed_announced_s"] = await heard.after(
                lambda: write_apis(world, {"train": train()})
            )
            assert " pets" not in await description(c), await description(c)
            gone = await exec_(c, "return tools.pets.getPetById({ petId = 1 })")
            assert not gone["ok"] and "pets" in gone["error"]["message"], gone
            still = await exec_(c, "return #tools.list(1, 'train').value")
            assert still["ok"] and still["value"] >= 3, still
        print(json.dumps(timings), flush=True)
    finally:
        shutil.rmtree(world, ignore_errors=True)


asyncio.run(main())
