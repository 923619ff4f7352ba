#!/usr/bin/env python3
"""Turn the Berkeley Function Calling Leaderboard data (PyPI package `bfcl-eval`,
Apache-2.0) into a codemode world plus a query file for `examples/search_eval.rs`.

Every function document of every BFCL category becomes a tool folder
(`<box>.toolbox/<name>.tool/init.luau` with docstrings). Every question whose ground
truth calls exactly one function becomes a query whose gold is that tool. Queries are
split by a hash of their id into `dev` (for tuning) and `test` (for reporting), and a
query is marked `paraphrase` when it shares few content words with its gold tool's
name and description (the hard case for keyword search).

Usage: search_eval_data.py BFCL_DATA_DIR OUT_DIR
"""

import hashlib
import json
import os
import re
import sys

# Categories whose questions have one ground-truth function (queries), and the others
# whose function documents only add distractors to the catalogue.
QUERY_CATEGORIES = [
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "live_simple",
    "live_multiple",
    "live_parallel",
]
DISTRACTOR_CATEGORIES = [
    "parallel_multiple",
    "live_parallel_multiple",
    "irrelevance",
    "live_irrelevance",
    "live_relevance",
]
LUAU_KEYWORDS = {
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    "continue", "export", "type", "typeof",
}
STOPWORDS = set(
    "a an the of to in on for and or with by from at as is are be this that it its into "
    "given specific using use based if any all can will which what how i me my you your "
    "please want need find get".split()
)


def ident(text):
    """A Luau identifier (at most 64 characters) made from `text`."""
    out = re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_") or "x"
    if out[0].isdigit():
        out = "_" + out
    if out in LUAU_KEYWORDS:
        out += "_"
    return out[:64]


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def one_line(text):
    return " ".join(str(text or "").split())


def lua_type(schema):
    t = (schema or {}).get("type", "any")
    return {
        "string": "string",
        "integer": "number",
        "number": "number",
        "float": "number",
        "boolean": "boolean",
        "dict": "table",
        "object": "table",
        "array": "table",
        "tuple": "table",
    }.get(t, "any")


def words(text):
    split = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {w.rstrip("s") for w in re.findall(r"[a-z0-9]+", split.lower()) if w not in STOPWORDS}


class Catalogue:
    """Function documents deduplicated by name (the first description wins: BFCL holds
    several near-identical versions of some functions) into tools with unique identities."""

    def __init__(self):
        self.tools = {}  # identity -> function doc
        self.by_doc = {}  # (name, description) -> identity

    def add(self, fn, category):
        key = fn["name"]
        if key in self.by_doc:
            return self.by_doc[key]
        if "." in fn["name"]:
            box, name = fn["name"].rsplit(".", 1)
            box = ident(box.replace(".", "_"))
        else:
            box, name = ident(category.split("_")[0] + "_api"), fn["name"]
        name = ident(name)
        identity, n = f"{box}.{name}", 2
        while identity in self.tools:
            identity, n = f"{box}.{name}_{n}", n + 1
        self.tools[identity] = fn
        self.by_doc[key] = identity
        return identity


def tool_source(name, fn):
    lines = [f"--!desc {one_line(fn.get('description')) or name}"]
    props = (fn.get("parameters") or {}).get("properties") or {}
    required = set((fn.get("parameters") or {}).get("required") or [])
    params = []
    for pname, schema in props.items():
        p = ident(pname)
        if p in (q for q, _ in params):
            continue
        params.append((p, f"{lua_type(schema)}{'' if pname in required else '?'}"))
        opt = "" if pname in required else "?"
        desc = one_line((schema or {}).get("description"))
        lines.append(f"--!arg {p} {lua_type(schema)}{opt} {desc}".rstrip())
    sig = ", ".join(f"{p}: {t}" for p, t in params)
    lines += [f"local function {name}({sig}): any", "\treturn nil", "end", "", f"return {name}", ""]
    return "\n".join(lines)


def question_text(entry):
    turns = entry.get("question") or []
    first = turns[0] if turns and isinstance(turns[0], list) else turns
    user = [m["content"] for m in first if isinstance(m, dict) and m.get("role") == "user"]
    return one_line(user[-1]) if user else ""


def main():
    data, out = sys.argv[1], sys.argv[2]
    cat = Catalogue()
    queries = []
    for category in QUERY_CATEGORIES + DISTRACTOR_CATEGORIES:
        path = os.path.join(data, f"BFCL_v4_{category}.json")
        if not os.path.exists(path):
            print(f"skipping {category}: {path} not found", file=sys.stderr)
            continue
        answers = {}
        answer_path = os.path.join(data, "possible_answer", f"BFCL_v4_{category}.json")
        if category in QUERY_CATEGORIES and os.path.exists(answer_path):
            answers = {a["id"]: a["ground_truth"] for a in read_jsonl(answer_path)}
        for entry in read_jsonl(path):
            ids = {fn["name"]: cat.add(fn, category) for fn in entry.get("function") or []}
            gold_names = {name for call in answers.get(entry["id"], []) for name in call}
            text = question_text(entry)
            if len(gold_names) != 1 or not text:
                continue
            gold = ids.get(next(iter(gold_names)))
            if gold is None:
                continue
            fn = cat.tools[gold]
            q, d = words(text), words(fn["name"] + " " + one_line(fn.get("description")))
            overlap = len(q & d) / max(1, len(q))
            split = "dev" if int(hashlib.sha1(entry["id"].encode()).hexdigest(), 16) % 2 else "test"
            queries.append({
                "id": entry["id"],
                "query": text[:2000],
                "gold": gold,
                "split": split,
                "paraphrase": overlap <= 0.2,
                "overlap": round(overlap, 3),
            })
    world = os.path.join(out, "world")
    for identity, fn in cat.tools.items():
        box, name = identity.split(".")
        folder = os.path.join(world, f"{box}.toolbox", f"{name}.tool")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "init.luau"), "w", encoding="utf-8") as f:
            f.write(tool_source(name, fn))
    with open(os.path.join(out, "queries.json"), "w", encoding="utf-8") as f:
        json.dump(queries, f, indent=0)
    para = sum(q["paraphrase"] for q in queries)
    print(f"{len(cat.tools)} tools, {len(queries)} queries ({para} paraphrases) in {out}")


if __name__ == "__main__":
    main()
