#!/usr/bin/env python3
"""Replay of an agent doing five tasks through `codemode serve` (code mode)
versus calling the same servers directly (one MCP tool call per step).

Usage (after `./test --setup`, which installs the SDK and the reference servers):
  target/mcp-venv/bin/python scripts/agent_tasks.py target/release/codemode target/upstream-servers

The scripts and searches replayed here were written by an agent that read nothing but
what `codemode serve` said over MCP (its tool descriptions, search_tools rows, envelopes).
Transcripts and worlds go to a new temporary folder (printed at the end).

Each run builds a fresh temporary world (never synced: only `codemode serve`
is ever run), replays the exact messages the evaluating agent sent (search_tools
queries and tool_exec scripts as first sent; none of the task scripts failed on
the first try), records transcripts, checks every task succeeded (exit 1 if not)
and prints a byte table.

Byte counting (UTF-8), identical on both sides:
  * session overhead = server `instructions` from initialize (only for servers
    whose instructions are meant for this agent) + for every tool in tools/list
    the compact JSON of {name, description, inputSchema, outputSchema?}.
    It is counted once per side and split evenly over the five tasks.
  * request = compact JSON of {"name": tool, "arguments": args}.
  * response = the text of every content block of the result (what the model
    reads). structuredContent duplicates the text and is NOT counted; its size
    is reported separately in the transcript.
"""
import asyncio
import json
import os
import shutil
import sys
import tempfile
from contextlib import AsyncExitStack

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

RUN = tempfile.mkdtemp(prefix="agent-tasks-")

SALES_CSV = """date,region,product,units,price
2024-01-03,North,Widget,12,9.99
2024-01-05,South,Gadget,5,24.50
2024-01-08,East,Widget,8,9.99
2024-01-10,West,Gizmo,3,49.00
2024-01-12,North,Gadget,7,24.50
2024-01-15,South,Widget,15,9.99
2024-01-18,East,Gizmo,2,49.00
2024-01-20,West,Widget,10,9.99
2024-01-22,North,Gizmo,4,49.00
2024-01-25,South,Gadget,6,24.50
2024-01-28,East,Gadget,9,24.50
2024-02-01,West,Gadget,4,24.50
2024-02-03,North,Widget,11,9.99
2024-02-06,South,Gizmo,1,49.00
2024-02-09,East,Widget,14,9.99
2024-02-12,West,Gizmo,5,49.00
2024-02-15,North,Gadget,3,24.50
2024-02-18,South,Widget,9,9.99
2024-02-21,East,Gizmo,6,49.00
2024-02-24,West,Widget,7,9.99
"""

# ---------------------------------------------------------------- code mode
# The scripts exactly as the agent sent them.
T1A = r'''local csv = vfs.read("data/sales.csv")
local parsed = tools.table.parseCsv(csv, {numbers = true})
local regions, products = {}, {}
for _, r in parsed.rows do
  local revenue = r.units * r.price
  local g = regions[r.region] or {region = r.region, units = 0, revenue = 0}
  g.units += r.units
  g.revenue += revenue
  regions[r.region] = g
  products[r.product] = (products[r.product] or 0) + revenue
end
local rows = {}
for _, g in regions do
  g.revenue = string.format("%.2f", g.revenue)
  table.insert(rows, g)
end
rows = tools.table.sortBy(rows, "region")
local top, topRev = nil, -1
for p, rev in products do
  if rev > topRev then top, topRev = p, rev end
end
local md = "# Sales report\n\n## Totals per region\n\n"
  .. tools.markdown.table(rows, {columns = {"region", "units", "revenue"}, align = {units = "right", revenue = "right"}})
  .. string.format("\n\n## Top product\n\n**%s** with revenue %.2f\n", top, topRev)
return md
'''

T2A = r'''local a = tools.createToolbox{name = "mine", description = "My own small helpers"}
local b = tools.create{
  toolbox = "mine", name = "cToF",
  description = "Convert a temperature from Celsius to Fahrenheit",
  args = {{name = "celsius", type = "number", description = "Temperature in degrees Celsius"}},
  code = "return celsius * 9 / 5 + 32",
}
return {box = a, tool = b, boiling = tools.mine.cToF(100), body = tools.mine.cToF(37)}
'''

T2B = r'''return {minus40 = tools.mine.cToF(-40), zero = tools.mine.cToF(0)}'''

T3A = r'''local text = "  The Quick Brown Fox jumps over the lazy dog, then naps in the warm afternoon sun by the old river bank.  "
local short = tools.text.truncate(text, 60, {wordBoundary = true})
local title = tools.text.caseConvert(short, "title")
local slug = tools.text.slugify(title, {maxLength = 40})
return {truncated = short, title = title, slug = slug}
'''

T4A = r'''local dirs = tools.files.list_allowed_directories({})
print(dirs.content)
local root = string.match(dirs.content, "(/[^\n]+)")
local file = tools.files.read_text_file({path = root .. "/sales.csv"})
local parsed = tools.table.parseCsv(file.content, {numbers = true})
local units = {}
for _, r in parsed.rows do units[r.region] = (units[r.region] or 0) + r.units end
local entities = {{name = "sales.csv", entityType = "dataset",
  observations = {#parsed.rows .. " rows", "columns: " .. table.concat(parsed.columns, ", ")}}}
for region, n in units do
  table.insert(entities, {name = "region:" .. region, entityType = "region",
    observations = {"sold " .. n .. " units in sales.csv"}})
end
tools.memory.create_entities({entities = entities})
local names = {}
for _, e in entities do table.insert(names, e.name) end
return tools.memory.open_nodes({names = names})
'''

T5A = r'''local r = tools.parallel({
  function() return tools.clock.get_current_time({timezone = "Europe/Paris"}) end,
  function() return tools.clock.get_current_time({timezone = "Asia/Tokyo"}) end,
})
return r
'''

# (task, [(tool, args), ...]) in the order sent. search_tools calls are not scripts.
CODEMODE_STEPS = {
    1: [("search_tools", {"query": "csv markdown report totals per group"}),
        ("search_tools", {"query": "group rows by column and sum", "toolbox": "table"}),
        ("tool_exec", {"script": T1A})],
    2: [("tool_exec", {"script": T2A}),
        ("tool_exec", {"script": T2B})],
    3: [("search_tools", {"query": "", "toolbox": "text", "limit": 30}),
        ("tool_exec", {"script": T3A})],
    4: [("search_tools", {"query": "read a text file"}),
        ("search_tools", {"query": "", "toolbox": "memory"}),
        ("tool_exec", {"script": T4A})],
    5: [("search_tools", {"query": "current time in a time zone", "toolbox": "clock"}),
        ("tool_exec", {"script": T5A})],
}

TASK_NAMES = {1: "CSV -> markdown report", 2: "write/save/call a tool",
              3: "chain three text tools", 4: "files + memory",
              5: "two time zones (parallel)"}

TEXT = "  The Quick Brown Fox jumps over the lazy dog, then naps in the warm afternoon sun by the old river bank.  "


def b(s):
    return len(s.encode("utf-8"))


def cj(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


def tool_entry_bytes(t):
    d = {"name": t.name, "description": t.description or "", "inputSchema": t.input_schema}
    if getattr(t, "output_schema", None):
        d["outputSchema"] = t.output_schema
    return b(cj(d))


def result_text(res):
    return "".join(c.text for c in res.content if getattr(c, "text", None) is not None)


class Fail(Exception):
    pass


class Recorder:
    def __init__(self, side):
        self.side = side
        self.overhead = 0
        self.overhead_detail = {}
        self.msgs = []          # transcript
        self.task_bytes = {t: 0 for t in TASK_NAMES}
        self.scripts = {t: 0 for t in TASK_NAMES}
        self.calls = {t: 0 for t in TASK_NAMES}
        self.failed = {t: 0 for t in TASK_NAMES}

    def add_overhead(self, label, nbytes, payload):
        self.overhead += nbytes
        self.overhead_detail[label] = self.overhead_detail.get(label, 0) + nbytes
        self.msgs.append({"task": "session", "kind": label, "bytes": nbytes, "payload": payload})

    async def call(self, task, session, server, name, args, extra_label=None):
        req = {"name": name, "arguments": args}
        res = await session.call_tool(name, args)
        text = result_text(res)
        rb, sb = b(cj(req)), b(text)
        self.task_bytes[task] += rb + sb
        self.calls[task] += 1
        if name == "tool_exec":
            self.scripts[task] += 1
        if res.is_error:
            self.failed[task] += 1
        self.msgs.append({"task": task, "server": server, "request": req, "request_bytes": rb,
                          "response": text, "response_bytes": sb, "is_error": bool(res.is_error),
                          "structured_bytes_not_counted": b(cj(res.structured_content)) if res.structured_content else 0,
                          "note": extra_label})
        return res, text


def make_world(upstream):
    os.makedirs(RUN, exist_ok=True)
    world = tempfile.mkdtemp(prefix="world-", dir=RUN)
    os.makedirs(os.path.join(world, ".codemode"))
    os.makedirs(os.path.join(world, "data"))
    with open(os.path.join(world, "data", "sales.csv"), "w") as f:
        f.write(SALES_CSV)
    data = os.path.join(world, "data")
    cfg = {"mcpServers": {
        "files": {"command": "node", "args": [
            os.path.join(upstream, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), data]},
        "memory": {"command": "node", "args": [
            os.path.join(upstream, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")],
            "env": {"MEMORY_FILE_PATH": os.path.join(data, "memory.jsonl")}},
        "clock": {"command": os.path.join(upstream, "venv/bin/mcp-server-time"), "args": []},
    }}
    with open(os.path.join(world, ".codemode", "mcp.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    # Separate world for the direct baseline's codemode --expose-tools server:
    # bundled tools only (files/memory/clock are reached directly there).
    bare = os.path.join(world, "bare-world")
    os.makedirs(bare)
    return world, data, bare


def check(cond, task, side, msg):
    if not cond:
        raise Fail(f"[{side}] task {task} failed: {msg}")


def envelope(text):
    try:
        return json.loads(text)
    except Exception:
        return {}


# ------------------------------------------------------------- codemode side
async def run_codemode(codemode, world):
    rec = Recorder("codemode")
    params = StdioServerParameters(command=codemode, args=["serve", "--world", world])
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            init = await s.initialize()
            if init.instructions:
                rec.add_overhead("instructions", b(init.instructions), init.instructions)
            tl = await s.list_tools()
            rec.add_overhead("tools/list", sum(tool_entry_bytes(t) for t in tl.tools),
                             [t.model_dump(exclude_none=True, by_alias=True) for t in tl.tools])
            results = {}
            for task, steps in CODEMODE_STEPS.items():
                results[task] = []
                for name, args in steps:
                    res, text = await rec.call(task, s, "codemode", name, args)
                    results[task].append((name, res, envelope(text)))
    # success checks on the final tool_exec envelopes
    def exe(task, i=-1):
        return [e for n, _, e in results[task] if n == "tool_exec"][i]
    e = exe(1)
    check(e.get("ok") and "832.28" in e.get("value", "") and "**Gizmo**" in e.get("value", ""), 1, "codemode", e)
    e1, e2 = exe(2, 0), exe(2, 1)
    check(e1.get("ok") and e1["value"]["boiling"] == 212 and e2.get("ok") and e2["value"]["minus40"] == -40,
          2, "codemode", (e1, e2))
    check(os.path.isdir(os.path.join(world, "mine.toolbox")), 2, "codemode", "tool not saved in the world")
    e = exe(3)
    check(e.get("ok") and e["value"]["slug"] == "the-quick-brown-fox-jumps-over-the-lazy", 3, "codemode", e)
    e = exe(4)
    check(e.get("ok") and len(e["value"]["entities"]) == 5, 4, "codemode", e)
    e = exe(5)
    check(e.get("ok") and all(x.get("ok") for x in e["value"]) and
          {x["value"]["timezone"] for x in e["value"]} == {"Europe/Paris", "Asia/Tokyo"}, 5, "codemode", e)
    # persistence across a brand-new serve session (verification only, not counted)
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            res = await s.call_tool("tool_exec", {"script": "return tools.mine.cToF(100)"})
            v = envelope(result_text(res))
            check(v.get("ok") and v.get("value") == 212, 2, "codemode", f"not persisted across sessions: {v}")
    return rec


# ---------------------------------------------------------------- direct side
async def run_direct(codemode, upstream, world, data, bare):
    rec = Recorder("direct")
    servers = {
        "files": StdioServerParameters(command="node", args=[
            os.path.join(upstream, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), data]),
        "memory": StdioServerParameters(command="node", args=[
            os.path.join(upstream, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")],
            env={**os.environ, "MEMORY_FILE_PATH": os.path.join(data, "memory-direct.jsonl")}),
        "clock": StdioServerParameters(command=os.path.join(upstream, "venv/bin/mcp-server-time"), args=[]),
        "cm": StdioServerParameters(command=codemode, args=["serve", "--world", bare, "--expose-tools"]),
    }
    async with AsyncExitStack() as stack:
        S = {}
        for key, p in servers.items():
            r, w = await stack.enter_async_context(stdio_client(p))
            s = await stack.enter_async_context(ClientSession(r, w))
            init = await s.initialize()
            S[key] = s
            tl = await s.list_tools()
            tools = tl.tools
            if key == "cm":
                # a no-scripting agent: leave out the code-mode tools and the
                # code-mode instructions (conservative: makes "direct" smaller)
                tools = [t for t in tools if t.name not in ("tool_exec", "search_tools")]
            elif init.instructions:
                rec.add_overhead(f"instructions:{key}", b(init.instructions), init.instructions)
            rec.add_overhead(f"tools/list:{key}", sum(tool_entry_bytes(t) for t in tools),
                             [t.model_dump(exclude_none=True, by_alias=True) for t in tools])

        # Task 1: list dirs, read the CSV, the model aggregates, markdown__table
        _, t = await rec.call(1, S["files"], "files", "list_allowed_directories", {})
        root = [l for l in t.splitlines() if l.startswith("/")][0]
        _, csv = await rec.call(1, S["files"], "files", "read_text_file", {"path": root + "/sales.csv"})
        lines = csv.strip().splitlines()[1:]
        reg, prod = {}, {}
        for line in lines:
            d, region, product, units, price = line.split(",")
            g = reg.setdefault(region, {"region": region, "units": 0, "revenue": 0.0})
            g["units"] += int(units)
            g["revenue"] += int(units) * float(price)
            prod[product] = prod.get(product, 0) + int(units) * float(price)
        rows = [{"region": g["region"], "units": g["units"], "revenue": f'{g["revenue"]:.2f}'}
                for g in sorted(reg.values(), key=lambda g: g["region"])]
        _, t = await rec.call(1, S["cm"], "cm", "markdown__table",
                              {"rows": rows, "opts": {"columns": ["region", "units", "revenue"],
                                                      "align": {"units": "right", "revenue": "right"}}})
        check("832.28" in t, 1, "direct", t)

        # Task 2: no non-scripting way to create a tool: one tool_exec on the
        # --expose-tools server creates it (same code as the codemode side),
        # then the new tool's tools/list entry is counted and it is called
        # directly as its own MCP tool, once per conversion.
        create = T2A.replace("return {box = a, tool = b, boiling = tools.mine.cToF(100), body = tools.mine.cToF(37)}",
                             "return {box = a, tool = b}")
        _, t = await rec.call(2, S["cm"], "cm", "tool_exec", {"script": create},
                              extra_label="creation needs one script even in the baseline")
        check(envelope(t).get("ok"), 2, "direct", t)
        tl = await S["cm"].list_tools()
        new = [x for x in tl.tools if x.name == "mine__cToF"]
        if not new:  # a fresh session would be needed to see it
            async with stdio_client(servers["cm"]) as (r, w):
                async with ClientSession(r, w) as s2:
                    await s2.initialize()
                    new = [x for x in (await s2.list_tools()).tools if x.name == "mine__cToF"]
        check(new, 2, "direct", "created tool not listed")
        nb = tool_entry_bytes(new[0])
        rec.task_bytes[2] += nb
        rec.msgs.append({"task": 2, "kind": "tools/list delta (mine__cToF)", "bytes": nb,
                         "payload": new[0].model_dump(exclude_none=True, by_alias=True)})
        outs = []
        for c in (100, 37, -40, 0):
            _, t = await rec.call(2, S["cm"], "cm", "mine__cToF", {"celsius": c})
            outs.append(envelope(t).get("value"))
        check(outs[0] == 212 and outs[2] == -40, 2, "direct", outs)

        # Task 3: three text tools, the model passes each result on
        _, t = await rec.call(3, S["cm"], "cm", "text__truncate",
                              {"text": TEXT, "maxChars": 60, "opts": {"wordBoundary": True}})
        short = envelope(t)["value"]
        _, t = await rec.call(3, S["cm"], "cm", "text__caseConvert", {"text": short, "to": "title"})
        title = envelope(t)["value"]
        _, t = await rec.call(3, S["cm"], "cm", "text__slugify", {"text": title, "opts": {"maxLength": 40}})
        check(envelope(t).get("value") == "the-quick-brown-fox-jumps-over-the-lazy", 3, "direct", t)

        # Task 4: files + memory
        _, t = await rec.call(4, S["files"], "files", "list_allowed_directories", {})
        _, csv = await rec.call(4, S["files"], "files", "read_text_file", {"path": root + "/sales.csv"})
        units = {}
        body = csv.strip().splitlines()
        for line in body[1:]:
            f = line.split(",")
            units[f[1]] = units.get(f[1], 0) + int(f[3])
        ents = [{"name": "sales.csv", "entityType": "dataset",
                 "observations": [f"{len(body) - 1} rows", "columns: " + ", ".join(body[0].split(","))]}]
        ents += [{"name": "region:" + k, "entityType": "region", "observations": [f"sold {v} units in sales.csv"]}
                 for k, v in units.items()]
        await rec.call(4, S["memory"], "memory", "create_entities", {"entities": ents})
        _, t = await rec.call(4, S["memory"], "memory", "open_nodes", {"names": [e["name"] for e in ents]})
        check(len(envelope(t).get("entities", [])) == 5, 4, "direct", t)

        # Task 5: two time zones (two calls; a client may issue them concurrently)
        r1, r2 = await asyncio.gather(
            rec.call(5, S["clock"], "clock", "get_current_time", {"timezone": "Europe/Paris"}),
            rec.call(5, S["clock"], "clock", "get_current_time", {"timezone": "Asia/Tokyo"}))
        check(not r1[0].is_error and not r2[0].is_error and "Asia/Tokyo" in r2[1], 5, "direct", (r1[1], r2[1]))
    return rec


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    codemode, upstream = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    world, data, bare = make_world(upstream)
    print(f"fresh world: {world}")
    try:
        cm = asyncio.run(run_codemode(codemode, world))
        dr = asyncio.run(run_direct(codemode, upstream, world, data, bare))
    except Fail as e:
        print("FAIL:", e)
        sys.exit(1)
    except Exception as e:  # anything unexpected is a failure too
        import traceback
        traceback.print_exc()
        print("FAIL:", repr(e))
        sys.exit(1)

    tdir = os.path.join(RUN, "transcripts")
    os.makedirs(tdir, exist_ok=True)
    for rec in (cm, dr):
        with open(os.path.join(tdir, f"{rec.side}.json"), "w") as f:
            json.dump({"overhead": rec.overhead, "overhead_detail": rec.overhead_detail,
                       "task_bytes": rec.task_bytes, "messages": rec.msgs}, f, indent=1, ensure_ascii=False)

    n = len(TASK_NAMES)
    print(f"session overhead (instructions + tools/list), split evenly over {n} tasks:")
    print(f"  codemode {cm.overhead} B {cm.overhead_detail}")
    print(f"  direct   {dr.overhead} B {dr.overhead_detail}")
    hdr = f"{'task':<30} {'scripts':>7} {'cm calls':>8} {'fails':>5} {'codemode B':>10} {'direct calls':>12} {'direct B':>9} {'ratio':>6} {'<=1/3':>5}"
    print(hdr)
    print("-" * len(hdr))
    tot_cm = tot_dr = 0
    all_ok = True
    for t, nm in TASK_NAMES.items():
        c = cm.task_bytes[t] + cm.overhead / n
        d = dr.task_bytes[t] + dr.overhead / n
        tot_cm += c
        tot_dr += d
        ok = c / d <= 1 / 3 and cm.scripts[t] <= 2
        all_ok &= ok
        print(f"{str(t) + '. ' + nm:<30} {cm.scripts[t]:>7} {cm.calls[t]:>8} {cm.failed[t]:>5} {c:>10.0f} "
              f"{dr.calls[t]:>12} {d:>9.0f} {c / d:>6.3f} {'yes' if ok else 'NO':>5}")
    print("-" * len(hdr))
    print(f"{'total':<30} {sum(cm.scripts.values()):>7} {sum(cm.calls.values()):>8} {sum(cm.failed.values()):>5} "
          f"{tot_cm:>10.0f} {sum(dr.calls.values()):>12} {tot_dr:>9.0f} {tot_cm / tot_dr:>6.3f} "
          f"{'yes' if tot_cm / tot_dr <= 1 / 3 else 'NO':>5}")
    print("\nwithout session overhead (per-task messages only):")
    for t in TASK_NAMES:
        print(f"  task {t}: codemode {cm.task_bytes[t]} B, direct {dr.task_bytes[t]} B, "
              f"ratio {cm.task_bytes[t] / dr.task_bytes[t]:.3f}")
    print(f"transcripts: {tdir}/codemode.json, {tdir}/direct.json")
    print("all tasks succeeded; operator steps: none (only `codemode serve` was run)")
    print("target (<=2 scripts per task and codemode <= 1/3 of direct per task and total):",
          "MET" if all_ok and tot_cm / tot_dr <= 1 / 3 else "NOT MET")


if __name__ == "__main__":
    main()
