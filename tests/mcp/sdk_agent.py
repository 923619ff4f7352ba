"""What the test clients that act as an agent share: calls of `tool_exec` through the
official MCP Python SDK, the tool's description, configuration files saved as an editor
saves them, and the time from an edit to `notifications/tools/list_changed`.

A script beside another folder of tests imports it after putting this folder on its path.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Callable

from mcp import Client


def save_whole(path: Path, value: dict) -> None:
    """Writes `value` as JSON to `path` whole and renames it in, as an editor saves."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(value, indent=2))
    part.rename(path)


def envelope(result) -> dict:
    assert result.structured_content is not None, f"no structuredContent: {result}"
    return result.structured_content


async def exec_(client: Client, script: str) -> dict:
    return envelope(await client.call_tool("tool_exec", {"script": script}))


async def description(client: Client) -> str:
    tools = (await client.list_tools(cache_mode="bypass")).tools
    return next(t.description for t in tools if t.name == "tool_exec")


class Announcements:
    """The `tools/list_changed` notifications a client hears: pass `handler` to the
    client as its message handler."""

    def __init__(self) -> None:
        self.heard: asyncio.Queue = asyncio.Queue()

    async def handler(self, message) -> None:
        if getattr(message, "method", None) == "notifications/tools/list_changed":
            self.heard.put_nowait(time.monotonic())

    async def after(self, edit: Callable[[], None]) -> float:
        """Seconds from `edit` to the next announcement (at most 10)."""
        while not self.heard.empty():
            self.heard.get_nowait()
        edited = time.monotonic()
        edit()
        announced = await asyncio.wait_for(self.heard.get(), timeout=10)
        return round(announced - edited, 3)
