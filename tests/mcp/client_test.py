"""Drives `codemode serve` with the official MCP Python SDK (`mcp`), a client nobody here wrote.

Usage: client_test.py --bin PATH --world DIR --transport stdio|http [--mode legacy|auto]

Each case prints PASS/FAIL with details; the last line is "N passed, N failed" and the
exit code is 1 when any case failed. Timings are printed for a person to read, never
asserted tightly.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

TIMEOUT_MS = 2000
MEMORY_MB = 64
WORKERS = 2

ARGS: argparse.Namespace
RESULTS: list[tuple[str, bool, str]] = []


def server_args(world: Path, extra: list[str]) -> list[str]:
    return [
        "serve",
        "--no-bundled",
        "--world", str(world),
        "--timeout-ms", str(TIMEOUT_MS),
        "--memory-mb", str(MEMORY_MB),
        "--workers", str(WORKERS),
        *extra,
    ]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@asynccontextmanager
async def http_server(world: Path, extra: list[str]):
    """Starts `codemode serve --http` on a free loopback port; yields its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [ARGS.bin, *server_args(world, ["--http", f"127.0.0.1:{port}", "--no-auth", *extra])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read().decode()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
        assert proc.poll() is None, "the HTTP server died during the case"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        out = proc.stdout.read()
        assert out == b"", f"HTTP server wrote to stdout: {out[:200]!r}"


class Target:
    """Where a case's clients connect: a fresh stdio process per client, or one HTTP server."""

    def __init__(self, world: Path, extra: list[str], url: str | None):
        self.world, self.extra, self.url = world, extra, url

    def client(self, **kw) -> Client:
        kw.setdefault("mode", ARGS.mode)
        if self.url:
            return Client(self.url, **kw)
        params = StdioServerParameters(command=ARGS.bin, args=server_args(self.world, self.extra))
        return Client(params, **kw)


@asynccontextmanager
async def target(world: Path, extra: list[str] | None = None):
    extra = extra or []
    if ARGS.transport == "http":
        async with http_server(world, extra) as url:
            yield Target(world, extra, url)
    else:
        yield Target(world, extra, None)


def case(fn):
    async def run():
        started = time.monotonic()
        try:
            detail = await asyncio.wait_for(fn(), timeout=120)
            RESULTS.append((fn.__name__, True, detail or ""))
            print(f"PASS {fn.__name__} ({time.monotonic() - started:.2f}s) {detail or ''}", flush=True)
        except BaseException as e:  # noqa: BLE001 - a case failure must not stop the others
            if isinstance(e, KeyboardInterrupt):
                raise
            RESULTS.append((fn.__name__, False, repr(e)))
            print(f"FAIL {fn.__name__}: {e!r}", flush=True)
            traceback.print_exc()

    run.__name__ = fn.__name__
    return run


def envelope(result) -> dict:
    """The tool_exec envelope: structured content and text must agree."""
    assert result.structured_content is not None, f"no structuredContent: {result}"
    text = result.content[0].text
    assert json.loads(text) == result.structured_content, "text and structuredContent differ"
    assert bool(result.is_error) == (not result.structured_content["ok"]), "isError != !ok"
    return result.structured_content


async def exec_(client: Client, script: str) -> dict:
    return envelope(await client.call_tool("tool_exec", {"script": script}))


# ---------------------------------------------------------------- cases


@case
async def discovery_then_call():
    async with target(ARGS.world) as t, t.client() as c:
        names = {tool.name for tool in (await c.list_tools()).tools}
        assert {"tool_exec", "search_tools"} <= names, names
        found = await c.call_tool("search_tools", {"query": "slug url"})
        assert not found.is_error, found
        rows = found.structured_content["value"]
        assert rows and rows[0]["identity"] == "text.slugify", rows
        env = await exec_(
            c,
            """
            local boxes = tools.toolboxes()
            local listed = tools.list(3, "text")
            local meta = tools.get("text.slugify")
            print(boxes.stdout)
            return {
                boxes = #boxes.value,
                listed = #listed.value,
                signature = meta.signature,
                slug = tools.text.slugify("Hello MCP World"),
            }
            """,
        )
        assert env["ok"], env
        v = env["value"]
        assert v["slug"] == "hello-mcp-world" and v["boxes"] >= 1 and v["listed"] == 2, v
        assert "text" in env["stdout"], env
        return f"signature={v['signature']!r}"


@case
async def limits_then_normal_call():
    async with target(ARGS.world) as t, t.client() as c:
        timeout = await exec_(c, "while true do end")
        assert not timeout["ok"] and timeout["error"]["kind"] == "timeout", timeout
        bomb = await exec_(c, "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end")
        assert not bomb["ok"] and bomb["error"]["kind"] == "memory", bomb
        syntax = await exec_(c, "return (")
        assert syntax["error"]["kind"] == "syntax", syntax
        normal = await exec_(c, "return tools.text.words('one two three')")
        assert normal["ok"] and normal["value"] == 3, normal
        return f"timeout after {timeout['elapsedMs']:.0f} ms, memory after {bomb['elapsedMs']:.0f} ms"


@case
async def globals_do_not_leak():
    async with target(ARGS.world) as t, t.client() as c:
        first = await exec_(c, "leaked = 42; _G.other = 1; return leaked")
        assert first["ok"] and first["value"] == 42, first
        # Two workers: repeat so both VMs are checked.
        for _ in range(4):
            later = await exec_(c, "return {leaked = leaked == nil, other = other == nil}")
            assert later["value"] == {"leaked": True, "other": True}, later
        shared = await exec_(c, "string.upper = nil; return 1")
        assert not shared["ok"], "a script could change a shared library table"
        after = await exec_(c, "return string.upper('ok')")
        assert after["value"] == "OK", after


@case
async def eight_concurrent_one_stuck():
    async with target(ARGS.world) as t, t.client() as c:
        work = "local n = 0 for i = 1, 50000 do n += i % 7 end return n"
        t0 = time.monotonic()
        alone = await exec_(c, work)
        alone_s = time.monotonic() - t0

        async def timed(script):
            t0 = time.monotonic()
            env = await exec_(c, script)
            return env, time.monotonic() - t0

        stuck = asyncio.create_task(timed("while true do end"))
        await asyncio.sleep(0.05)
        others = await asyncio.gather(*(timed(work) for _ in range(7)))
        stuck_env, stuck_s = await stuck
        assert stuck_env["error"]["kind"] == "timeout", stuck_env
        for env, _ in others:
            assert env["ok"] and env["value"] == alone["value"], env
        slowest = max(s for _, s in others)
        # The 7 must not wait for the stuck one's deadline (2 s): queue, not lock-step.
        assert slowest < stuck_s, f"slowest of 7 took {slowest:.2f}s, the stuck one {stuck_s:.2f}s"
        times = ", ".join(f"{s * 1000:.0f}" for _, s in others)
        return f"alone {alone_s * 1000:.0f} ms; 7 beside a stuck script: [{times}] ms; stuck {stuck_s * 1000:.0f} ms"


@case
async def bad_arguments_and_unknown_tools():
    async with target(ARGS.world) as t, t.client() as c:
        missing = await c.call_tool("tool_exec", {})
        assert missing.is_error and "script" in missing.content[0].text, missing
        wrong = await c.call_tool("tool_exec", {"script": 42})
        assert wrong.is_error and "must be a string" in wrong.content[0].text, wrong
        bad_limit = await c.call_tool("search_tools", {"query": "x", "limit": "ten"})
        assert bad_limit.is_error and "limit" in bad_limit.content[0].text, bad_limit
        try:
            await c.call_tool("no_such_tool", {})
            raise AssertionError("an unknown tool was accepted")
        except MCPError as e:
            assert "unknown tool" in str(e), e
        # An unknown tool is stopped by the type check before the script runs, or, when
        # the script comes while the server's checker still loads, by the runtime.
        runtime = await exec_(c, "return tools.text.nope('x')")
        assert not runtime["ok"] and runtime["error"]["kind"] in ("type", "runtime"), runtime
        assert "nope" in runtime["error"]["message"], runtime
        still = await exec_(c, "return 'still serving'")
        assert still["value"] == "still serving", still
        return f"{runtime['error']['kind']} hint: {runtime['error'].get('hint')!r}"


@case
async def ten_megabyte_script():
    async with target(ARGS.world) as t, t.client() as c:
        script = "local x = 1\n" * (10 * 1024 * 1024 // 12) + "return x"
        result = await c.call_tool("tool_exec", {"script": script})
        env = envelope(result)
        assert not env["ok"] and "at most" in env["error"]["message"], env
        after = await exec_(c, "return 7")
        assert after["value"] == 7, after
        return env["error"]["message"][:80]


@case
async def big_output_is_cut_to_fit_one_message():
    # The Python SDK refuses an HTTP message over 1 MiB; the reply carries the envelope
    # twice (structured and as text), so the server's default cap keeps it well below.
    async with target(ARGS.world) as t, t.client() as c:
        script = 'print(string.rep("y", 600 * 1024)) return string.rep("z", 600 * 1024)'
        result = await c.call_tool("tool_exec", {"script": script})
        env = envelope(result)
        assert not env["ok"] and env["error"]["kind"] == "output", env["error"]
        assert env["truncated"] and 0 < len(env["stdout"]) <= 128 * 1024, len(env["stdout"])
        big = await exec_(c, 'return string.rep("z", 600 * 1024)')
        assert big["truncated"] and len(big["value"]) <= 128 * 1024, len(big["value"])
        after = await exec_(c, "return 7")
        assert after["value"] == 7, after
        return f"stdout cut at {len(env['stdout'])} bytes"


@case
async def hundred_queued_calls():
    async with target(ARGS.world) as t, t.client() as c:
        t0 = time.monotonic()
        envs = await asyncio.gather(*(exec_(c, f"return {i} * 2") for i in range(100)))
        assert [e["value"] for e in envs] == [i * 2 for i in range(100)], envs[:3]
        return f"100 calls in {(time.monotonic() - t0) * 1000:.0f} ms"


@case
async def disconnect_mid_call():
    async with target(ARGS.world) as t:
        async def abandon():
            async with t.client() as c:
                await c.call_tool("tool_exec", {"script": "while true do end"})

        task = asyncio.create_task(abandon())
        await asyncio.sleep(0.5)
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the abandoned client may fail any way
            pass
        async with t.client() as c:
            env = await exec_(c, "return 'after disconnect'")
            assert env["value"] == "after disconnect", env


@case
async def exposed_tools_and_list_changed():
    world = Path(tempfile.mkdtemp(prefix="codemode-mcp-"))
    try:
        shutil.copytree(ARGS.world, world, dirs_exist_ok=True)
        changed = asyncio.Event()

        async def on_message(message):
            if getattr(message, "method", None) == "notifications/tools/list_changed":
                changed.set()

        async with target(world, ["--expose-tools"]) as t, t.client(message_handler=on_message) as c:
            tools = {tool.name: tool for tool in (await c.list_tools()).tools}
            assert "text__slugify" in tools, list(tools)
            schema = tools["text__slugify"].input_schema
            assert schema["required"] == ["text"], schema
            assert schema["properties"]["text"]["type"] == "string", schema
            ok = envelope(await c.call_tool("text__slugify", {"text": "Hi There"}))
            assert ok["value"] == "hi-there", ok
            missing = await c.call_tool("text__slugify", {})
            assert missing.is_error and "missing argument" in missing.content[0].text, missing
            typed = await c.call_tool("text__slugify", {"text": 5})
            assert typed.is_error and "must be a string" in typed.content[0].text, typed

            async def add_tool():
                tool = world / "text.toolbox" / "shout.tool"
                tool.mkdir()
                (tool / "init.luau").write_text(
                    "--!desc Upper-case a text.\n"
                    "local function shout(text: string): string\n\treturn string.upper(text)\nend\n\n"
                    "return shout\n"
                )

            if c.protocol_version >= "2026":
                async with c.listen(tools_list_changed=True) as sub:
                    await add_tool()
                    events = sub.__aiter__()
                    await asyncio.wait_for(events.__anext__(), timeout=15)
            else:
                await add_tool()
                await asyncio.wait_for(changed.wait(), timeout=15)
            names = {tool.name for tool in (await c.list_tools(cache_mode="bypass")).tools}
            assert "text__shout" in names, names
            shout = envelope(await c.call_tool("text__shout", {"text": "hey"}))
            assert shout["value"] == "HEY", shout
            return f"protocol {c.protocol_version}"
    finally:
        shutil.rmtree(world, ignore_errors=True)


CASES = [
    discovery_then_call,
    limits_then_normal_call,
    globals_do_not_leak,
    eight_concurrent_one_stuck,
    bad_arguments_and_unknown_tools,
    ten_megabyte_script,
    hundred_queued_calls,
    disconnect_mid_call,
    exposed_tools_and_list_changed,
]


async def main() -> int:
    only = set(ARGS.only.split(",")) if ARGS.only else None
    for run in CASES:
        if only is None or run.__name__ in only:
            await run()
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    failed = len(RESULTS) - passed
    print(f"mcp-{ARGS.transport}-{ARGS.mode}: {passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--world", required=True, type=Path)
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--mode", choices=["legacy", "auto"], default="legacy")
    parser.add_argument("--only", help="comma-separated case names")
    ARGS = parser.parse_args()
    os.environ.setdefault("CODEMODE_LOG", "warn")
    sys.exit(asyncio.run(main()))
