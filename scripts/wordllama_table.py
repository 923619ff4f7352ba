#!/usr/bin/env python3
"""Convert WordLlama's static table into the second meaning table codemode ships.

WordLlama (MIT, https://github.com/dleemiller/WordLlama) is a static embedding model:
a 32,000-row token table trained for sentence similarity on top of Llama 2's token
embeddings, with Llama 2's SentencePiece BPE tokenizer. A text's vector is the mean of
its tokens' rows. Its 256-d table was trained so that the first dimensions carry most
of the signal (Matryoshka), so the first 128 are kept.

    pip install --no-deps wordllama==0.4.0.post1 && pip install numpy safetensors
    python3 scripts/wordllama_table.py engine/search/model

Writes OUT/wordllama.bin (the `CMSE` int8 format of static.bin: header, u32 rows,
u32 dims, then per row an f32 scale and `dims` int8 values), OUT/wordllama_vocab.txt
(token i on line i; `\\` and carriage returns escaped as `\\\\` and `\\r`) and
OUT/wordllama_merges.txt (the BPE merges in priority order, each as the ids of its two
tokens and of the token they make), which `engine/search/bpe.rs` reads.
"""

import argparse
import importlib.util
import json
import os
import sys

import numpy as np
from safetensors.numpy import load_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_static import write_table  # noqa: E402


def package_dir():
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("wordllama is not installed: pip install --no-deps wordllama==0.4.0.post1")
    return list(spec.submodule_search_locations)[0]


def escape(token):
    return token.replace("\\", "\\\\").replace("\r", "\\r")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--dims", type=int, default=128)
    args = ap.parse_args()
    root = package_dir()
    weights = load_file(os.path.join(root, "weights", "l2_supercat_256.safetensors"))
    table = next(iter(weights.values())).astype(np.float32)[:, : args.dims]
    config = json.load(open(os.path.join(root, "tokenizers", "l2_supercat_tokenizer_config.json"), encoding="utf-8"))
    model = config["model"]
    if model["type"] != "BPE" or not model.get("byte_fallback"):
        raise SystemExit("expected a byte-fallback BPE tokenizer")
    vocab = sorted(model["vocab"].items(), key=lambda kv: kv[1])
    if [i for _, i in vocab] != list(range(len(table))):
        raise SystemExit("the vocabulary does not number the table's rows")
    if any("\n" in t for t, _ in vocab):
        raise SystemExit("a token holds a newline: the vocabulary file cannot hold it")
    ids = dict(model["vocab"])

    write_table(args.out, table, "wordllama.bin")
    with open(os.path.join(args.out, "wordllama_vocab.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(escape(t) + "\n" for t, _ in vocab))
    with open(os.path.join(args.out, "wordllama_merges.txt"), "w", encoding="utf-8", newline="\n") as f:
        for merge in model["merges"]:
            a, b = merge.split(" ") if isinstance(merge, str) else merge
            if a + b not in ids:
                raise SystemExit(f"merge {a!r} {b!r} makes no token")
            f.write(f"{ids[a]} {ids[b]} {ids[a + b]}\n")
    print(f"{len(table)} rows x {table.shape[1]} dims, {len(model['merges'])} merges -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
