"""Connects the official MCP Python SDK to `codemode serve --http` with bearer tokens.

Usage: auth_test.py URL CASES_JSON, where each case is {"name", "token" (or null),
"expect": "ok" | "401" | "denied"}. "ok" runs tool_exec and expects 42; "denied" expects
the envelope error kind "denied" for a call of t.echo; "401" expects the connection to
fail, every response it got being a 401. The last line is "N passed, N failed"; exit 1 when any failed.
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def run(url: str, case: dict) -> None:
    headers = {"Authorization": f"Bearer {case['token']}"} if case["token"] else {}
    statuses: list[int] = []

    async def record(response) -> None:
        statuses.append(response.status_code)

    http = httpx2.AsyncClient(headers=headers, timeout=30, event_hooks={"response": [record]})
    try:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            if case["expect"] == "401":
                raise AssertionError("connected without a valid token")
            script = "return tools.t.echo('hi')" if case["expect"] == "denied" else "return 40 + 2"
            result = await client.call_tool("tool_exec", {"script": script})
            envelope = result.structured_content
            if case["expect"] == "ok":
                assert envelope["value"] == 42, envelope
            else:
                assert envelope["error"]["kind"] == "denied", envelope
    except AssertionError:
        raise
    except BaseException as e:  # noqa: BLE001 - the SDK raises groups and its own errors
        # The SDK reports a refused POST as an error response; the status is on the wire.
        if case["expect"] != "401" or 401 not in statuses:
            raise
        assert all(status == 401 for status in statuses), statuses
    finally:
        await http.aclose()


async def main() -> int:
    url, cases = sys.argv[1], json.loads(sys.argv[2])
    passed = failed = 0
    for case in cases:
        try:
            await asyncio.wait_for(run(url, case), timeout=60)
            passed += 1
            print(f"PASS {case['name']}", flush=True)
        except BaseException as e:  # noqa: BLE001
            failed += 1
            print(f"FAIL {case['name']}: {e!r}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(asyncio.run(main()))
