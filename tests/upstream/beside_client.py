"""Drives `codemode serve --workers 1` on stdio with the official MCP Python SDK: while
two scripts wait for slow upstream calls (more than there are workers), short requests
sent after them must be answered at once. Prints one JSON line: the seconds each request
took, per round.

    beside_client.py BIN WORLD ROUNDS
"""
import asyncio
import json
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN, WORLD, ROUNDS = sys.argv[1], sys.argv[2], int(sys.argv[3])
SLOW = "return tools.everything.trigger_long_running_operation({duration = 2, steps = 1})"


async def main():
    params = StdioServerParameters(command=BIN, args=["--world", WORLD, "serve", "--workers", "1"])
    # serve's log lines go to a pipe, as an MCP client host reads them.
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            async def timed(tool, arguments, delay):
                await asyncio.sleep(delay)
                started = time.monotonic()
                result = await session.call_tool(tool, arguments)
                return round(time.monotonic() - started, 2), result.content[0].text[:80]

            # The server is started (and its catalogue read) before the rounds.
            warm = await timed("tool_exec", {"script": "return tools.everything.get_sum({a = 1, b = 2})"}, 0)
            rounds = []
            for _ in range(ROUNDS):
                slow, also_slow, fast, search = await asyncio.gather(
                    timed("tool_exec", {"script": SLOW}, 0),
                    timed("tool_exec", {"script": SLOW}, 0.1),
                    timed("tool_exec", {"script": "return 1 + 1"}, 0.3),
                    timed("search_tools", {"query": "add two numbers"}, 0.5),
                )
                rounds.append({"slow": slow, "alsoSlow": also_slow, "fast": fast, "search": search})
            print(json.dumps({"warm": warm, "rounds": rounds}))


asyncio.run(main())
