#!/usr/bin/env python3
"""A deliberately misbehaving MCP server on stdio, for tests/upstream.rs. Plain Python,
no SDK: each mode breaks the protocol in one way a real server might.

    fixture_server.py hang       never answers, not even `initialize`
    fixture_server.py crash      works until `tools/call`, then writes to stderr and exits 3
    fixture_server.py garbage    works until `tools/call`, then prints a line that is not JSON
    fixture_server.py banner     prints a banner on stdout before anything else
    fixture_server.py slow LOG   `sleep {ms}` sleeps in a thread; `notifications/cancelled`
                                 is appended to LOG (one JSON line each)
    fixture_server.py huge       `huge {mb}` answers with one message of that many MiB (its
                                 id last, as the TypeScript SDK writes it); `sleep` works
    fixture_server.py grow       `grow` adds a tool `grown_N` and sends
                                 notifications/tools/list_changed; `sleep` works
    fixture_server.py deaf       answers the first `tools/call` after closing its stdin,
                                 then stays up with stdout open: the next request codemode
                                 writes meets a pipe nobody reads
    fixture_server.py typed N    well behaved, for type checks: `echo` answers with the
                                 JSON of its arguments (its `e` is an enum of mixed
                                 types), `get_sum` with `a + b`, and N more tools `t0`...
    fixture_server.py tells      well behaved, but its tool `tell` quotes FIXTURE_SECRET in
                                 its description
    fixture_server.py odd        names and replies another party might choose: tools
                                 `日本語`, `get_thing` and `getThing`, `noschema` (no
                                 inputSchema), `paged` (integer arguments), `echo`
                                 (answers its arguments) and `raw`
                                 (writes its `line` as the reply, ID replaced by the
                                 request's id)

Every mode writes its FIXTURE_SECRET environment variable to stderr at start, so tests
can check it is masked in errors.
"""
import json
import os
import sys
import threading
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "crash"
LOG = sys.argv[2] if len(sys.argv) > 2 else None
lock = threading.Lock()
grown = []

TOOLS = [
    {
        "name": "sleep",
        "description": "Sleep, then say so.",
        "inputSchema": {
            "type": "object",
            "properties": {"ms": {"type": "number"}},
            "required": ["ms"],
        },
    },
    {"name": "boom", "description": "Misbehave.", "inputSchema": {"type": "object"}},
]

TYPED = [
    {
        "name": "echo",
        "description": "Answer with the arguments.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "message": {"type": "string"},
                "e": {"type": "string", "enum": ["a\"b", "c]]d", "\n", "", 5, None]},
            },
        },
    },
    {
        "name": "get_sum",
        "description": "Add two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
]

ODD = [
    {"name": "echo", "description": "Answer the arguments.", "inputSchema": {"type": "object"}},
    {
        "name": "raw",
        "description": "Write a line as the reply.",
        "inputSchema": {"type": "object", "properties": {"line": {"type": "string"}}, "required": ["line"]},
    },
    {"name": "日本語", "description": "A name with no ASCII letter.", "inputSchema": {"type": "object"}},
    {"name": "get_thing", "description": "Snake case.", "inputSchema": {"type": "object"}},
    {"name": "getThing", "description": "Camel case.", "inputSchema": {"type": "object"}},
    {"name": "noschema", "description": "No input schema."},
    {
        "name": "paged",
        "description": "Whole numbers only.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "page": {"type": "integer"},
                "sizes": {"type": "array", "items": {"type": "integer"}},
                "ratio": {"type": ["number", "null"]},
            },
        },
    },
]


def send(message):
    with lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def reply(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def call(request):
    params = request.get("params") or {}
    name = params.get("name")
    if MODE == "crash":
        sys.stderr.write("fatal: exploding on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    if MODE == "garbage":
        with lock:
            sys.stdout.write("Traceback (most recent call last): not json at all\n")
            sys.stdout.flush()
        return
    if MODE == "huge" and name == "huge":
        mb = (params.get("arguments") or {}).get("mb", 17)
        text = "x" * int(mb * 1024 * 1024)
        # The result before the id, as the TypeScript SDK orders a response.
        body = '{"result":{"content":[{"type":"text","text":"%s"}]},"jsonrpc":"2.0","id":%s}' % (
            text,
            json.dumps(request["id"]),
        )
        with lock:
            sys.stdout.write(body + "\n")
            sys.stdout.flush()
        return
    if MODE == "grow" and name == "grow":
        tool = {
            "name": "grown_%d" % (len(grown) + 1),
            "description": "Added at run time, number %d." % (len(grown) + 1),
            "inputSchema": {"type": "object"},
        }
        grown.append(tool)
        reply(request, {"content": [{"type": "text", "text": tool["name"]}]})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return
    if MODE == "typed" and name in ("echo", "get_sum"):
        args = params.get("arguments") or {}
        text = json.dumps(args, sort_keys=True) if name == "echo" else str(args["a"] + args["b"])
        reply(request, {"content": [{"type": "text", "text": text}]})
        return
    if MODE == "odd" and name == "raw":
        line = (params.get("arguments") or {})["line"].replace("ID", json.dumps(request["id"]))
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        return
    if MODE == "odd":
        answer = {"tool": name, "args": params.get("arguments") or {}}
        reply(request, {"content": [{"type": "text", "text": json.dumps(answer)}]})
        return
    if name == "sleep":
        ms = (params.get("arguments") or {}).get("ms", 0)
        time.sleep(ms / 1000.0)
        reply(request, {"content": [{"type": "text", "text": "slept %d ms" % ms}]})
        return
    reply(request, {"content": [{"type": "text", "text": "boom"}], "isError": True})


def main():
    sys.stderr.write("fixture %s starting, secret=%s\n" % (MODE, os.environ.get("FIXTURE_SECRET", "")))
    sys.stderr.flush()
    if MODE == "banner":
        sys.stdout.write("Welcome to the fixture server v1.0!\n")
        sys.stdout.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        method = message.get("method")
        if MODE == "hang":
            continue
        if method == "initialize":
            reply(
                message,
                {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {"listChanged": True}},
                    "serverInfo": {"name": "fixture", "version": "1.0"},
                },
            )
        elif method == "tools/list":
            extra = [{"name": "huge", "description": "Answer big.", "inputSchema": {"type": "object"}}] if MODE == "huge" else []
            if MODE == "odd":
                reply(message, {"tools": ODD})
                continue
            if MODE == "grow":
                extra = [{"name": "grow", "description": "Add a tool.", "inputSchema": {"type": "object"}}] + grown
            if MODE == "tells":
                secret = os.environ.get("FIXTURE_SECRET", "")
                extra = [{"name": "tell", "description": "Echo things. Account key %s in use." % secret, "inputSchema": {"type": "object"}}]
            if MODE == "typed":
                extra = TYPED + [
                    {"name": "t%d" % i, "description": "Tool %d." % i, "inputSchema": {"type": "object"}}
                    for i in range(int(LOG or 0))
                ]
            reply(message, {"tools": TOOLS + extra})
        elif method == "tools/call" and MODE == "deaf":
            os.close(0)
            reply(message, {"content": [{"type": "text", "text": "last words"}]})
            time.sleep(60)
            return
        elif method == "tools/call":
            threading.Thread(target=call, args=(message,), daemon=True).start()
        elif method == "notifications/cancelled" and LOG:
            with open(LOG, "a") as log:
                log.write(json.dumps(message.get("params")) + "\n")
        elif "id" in message and method is not None:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no such method"}})


main()
