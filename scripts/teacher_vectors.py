#!/usr/bin/env python3
"""A sentence-transformers teacher's vectors of the texts a search evaluation embedded,
to measure what ranking by a real transformer would gain (see docs/search.md, "What a
transformer would gain").

    CM_VECTORS_LOG=/tmp/texts.jsonl cargo run --release --features bench --example search_eval
    python3 scripts/teacher_vectors.py /tmp/texts.jsonl /tmp/vectors.jsonl
    CM_VECTORS=/tmp/vectors.jsonl cargo run --release --features bench --example search_eval

The log holds one `["asset" | "request", text]` line per text the engine embedded; the
output one `[role, text, [floats]]` line per distinct text, the teacher's pooled output
of the whole text (truncated to 256 tokens), unit length. `--static-assets RAW.npy`
gives assets the teacher's static vectors instead (the SIF-weighted mean of each token's
own output, as `distill_static.py --raw-cache RAW.npy` keeps them, before any PCA, so
they share the teacher's axes): a transformer for requests only, the table for tools.

Needs numpy, safetensors and the teacher (as for distill_static.py).
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from distill_static import Encoder, model_dir, sif_weights  # noqa: E402
from fit_static import WordPiece, expand_identifiers  # noqa: E402

MAX_TOKENS = 256


def read_log(path):
    """Distinct (role, text) pairs; lines written by several threads may be joined."""
    raw, decoder, at, seen = open(path, encoding="utf-8").read(), json.JSONDecoder(), 0, set()
    while at < len(raw):
        if raw[at].isspace():
            at += 1
            continue
        (role, text), at = decoder.raw_decode(raw, at)
        seen.add((role, text))
    return sorted(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("out")
    ap.add_argument("--teacher", default="all-MiniLM-L6-v2")
    ap.add_argument("--model-dir")
    ap.add_argument("--static-assets", metavar="RAW.npy")
    ap.add_argument("--sif", type=float, default=1e-6)
    args = ap.parse_args()

    folder = model_dir(args.teacher, args.model_dir)
    vocab = open(os.path.join(folder, "vocab.txt"), encoding="utf-8").read().splitlines()
    pieces = WordPiece(vocab)
    cls_id, sep_id = vocab.index("[CLS]"), vocab.index("[SEP]")
    pooling_cfg = os.path.join(folder, "1_Pooling", "config.json")
    cls_pooling = os.path.exists(pooling_cfg) and json.load(open(pooling_cfg)).get("pooling_mode_cls_token")
    encoder = Encoder(folder)
    table = None
    if args.static_assets:
        pooled = np.load(args.static_assets).mean(1)
        table = pooled * sif_weights(len(pooled), args.sif)[:, None]

    pairs = read_log(args.log)
    with open(args.out, "w", encoding="utf-8") as out:
        for role, text in pairs:
            ids = pieces.encode(expand_identifiers(text))[: MAX_TOKENS - 2]
            if not ids:
                continue
            if table is not None and role == "asset":
                v = table[ids].sum(0)
            else:
                x = encoder.run(np.array([[cls_id] + ids + [sep_id]]))[0]
                v = x[0] if cls_pooling else x.mean(0)
            v = v / np.linalg.norm(v)
            out.write(json.dumps([role, text, [round(float(a), 5) for a in v]]) + "\n")
    print(f"{len(pairs)} texts -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
