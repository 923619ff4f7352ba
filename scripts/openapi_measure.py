#!/usr/bin/env python3
"""Measures the OpenAPI toolboxes (docs/openapi.md), one command:

    python3 scripts/openapi_measure.py

1. Import: how long `codemode exec` takes to list GitHub's 1,223 operations from its
   published description, cold (the description parsed, the catalogue written) and
   cached (the catalogue read), and to name one operation (what a script calling the API
   pays), beside a run that reads no API (the process alone). Medians of 5 runs (3 cold).
2. Bytes: GitHub's description served by the Prism mock server on loopback (answers from
   the description's own examples). An agent that calls three endpoints as separate tools
   receives each answer whole; one script lists, filters and summarises the three and
   returns only the summary. Bytes are those of the scripts sent and the envelopes
   received (what tool_exec returns).

Builds the release binary, and installs GitHub's description and Prism once with
tests/openapi/setup.sh (node, npm and python3 needed). Prints one JSON object.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
RUNS = 5


def build() -> Path:
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "--bin", "codemode"], cwd=ROOT, check=True
    )
    return TARGET / "release" / "codemode"


def deps() -> Path:
    out = subprocess.run(
        ["bash", str(ROOT / "tests/openapi/setup.sh"), str(TARGET / "openapi-deps")],
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(out.stdout.strip())


def world(apis: dict, http: dict | None = None) -> Path:
    dir = Path(tempfile.mkdtemp(prefix="codemode-openapi-measure-"))
    (dir / ".codemode").mkdir()
    (dir / ".codemode/apis.json").write_text(json.dumps({"apis": apis}))
    if http is not None:
        (dir / ".codemode/http.json").write_text(json.dumps(http))
    return dir


def exec_(bin: Path, dir: Path, script: str) -> tuple[float, dict, int]:
    """Runs `script`; its wall time in seconds, its envelope and the envelope's bytes."""
    started = time.perf_counter()
    out = subprocess.run(
        [str(bin), "--world", str(dir), "--check", "off", "--timeout-ms", "120000", "exec"],
        input=script,
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - started
    envelope = json.loads(out.stdout)
    assert envelope.get("ok"), envelope
    return took, envelope, len(out.stdout.encode())


def import_times(bin: Path, spec: Path) -> dict:
    every = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
    dir = world({"github": {"spec": str(spec), "baseUrl": "https://api.github.com", "methods": every}})
    listing = "return #tools.list(1, 'github').value"
    try:
        process = statistics.median(exec_(bin, dir, "return 1")[0] for _ in range(RUNS))
        colds = []
        for _ in range(3):
            shutil.rmtree(dir / ".codemode/cache", ignore_errors=True)
            took, envelope, _ = exec_(bin, dir, listing)
            colds.append(took)
        operations = envelope["value"]
        cached = statistics.median(exec_(bin, dir, listing)[0] for _ in range(RUNS))
        # What a script that calls the API pays: the catalogue read, one operation named.
        one = "return tools.github.pulls_list ~= nil"
        named = statistics.median(exec_(bin, dir, one)[0] for _ in range(RUNS))
    finally:
        shutil.rmtree(dir, ignore_errors=True)
    ms = lambda s: round(s * 1000, 1)  # noqa: E731
    return {
        "operations": operations,
        "description_bytes": spec.stat().st_size,
        "process_alone_ms": ms(process),
        "cold_ms": ms(statistics.median(colds)),
        "cached_listing_all_ms": ms(cached),
        "cached_one_operation_ms": ms(named),
        "cached_one_operation_beyond_process_ms": ms(named - process),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SEPARATE = [
    'return tools.github.pulls_list({ owner = "octo", repo = "hello", state = "all", per_page = 100 })',
    'return tools.github.issues_list_for_repo({ owner = "octo", repo = "hello", state = "all", per_page = 100 })',
    'return tools.github.repos_list_commits({ owner = "octo", repo = "hello", per_page = 100 })',
]

# The same three endpoints, listed, filtered and summarised in one script.
ONE = """
local owner, repo = "octo", "hello"
local pulls = tools.github.pulls_list({ owner = owner, repo = repo, state = "all", per_page = 100 })
local issues = tools.github.issues_list_for_repo({ owner = owner, repo = repo, state = "all", per_page = 100 })
local commits = tools.github.repos_list_commits({ owner = owner, repo = repo, per_page = 100 })
local open, drafts = {}, 0
for _, pr in pulls do
    if pr.draft then drafts += 1 elseif pr.state == "open" then table.insert(open, pr.title) end
end
local labels = {}
for _, issue in issues do
    if not issue.pull_request then
        for _, label in issue.labels or {} do
            local name = if type(label) == "table" then label.name else label
            labels[name] = (labels[name] or 0) + 1
        end
    end
end
local authors = {}
for _, c in commits do
    local who = c.commit and c.commit.author and c.commit.author.name or "?"
    authors[who] = (authors[who] or 0) + 1
end
return { open_pulls = open, drafts = drafts, issue_labels = labels, commit_authors = authors }
"""


def bytes_compared(bin: Path, spec: Path, prism: Path) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [str(prism), "mock", "-h", "127.0.0.1", "-p", str(port), str(spec)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    dir = None
    try:
        until = time.monotonic() + 180
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, "Prism exited before it listened"
                assert time.monotonic() < until, "Prism did not listen within 180 s"
                time.sleep(0.5)
        host = f"127.0.0.1:{port}"
        dir = world(
            {"github": {"spec": str(spec), "baseUrl": f"http://{host}"}},
            {"credentials": {host: {"headers": {"Authorization": "Bearer measure"}}}},
        )
        separate = 0
        for script in SEPARATE:
            _, _, received = exec_(bin, dir, script)
            separate += len(script.encode()) + received
        _, envelope, received = exec_(bin, dir, ONE)
        one = len(ONE.encode()) + received
    finally:
        server.kill()
        server.wait()
        if dir is not None:
            shutil.rmtree(dir, ignore_errors=True)
    return {
        "separate_calls_bytes": separate,
        "one_script_bytes": one,
        "ratio": round(one / separate, 3),
        "summary": envelope["value"],
    }


def main() -> None:
    bin = build()
    installed = deps()
    spec = installed / "node_modules/@octokit/openapi/generated/api.github.com.json"
    prism = installed / "node_modules/.bin/prism"
    result = {"import": import_times(bin, spec), "bytes": bytes_compared(bin, spec, prism)}
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
