#!/usr/bin/env bash
# Retrieval evaluation of tools.search over the BFCL tool catalogue (Apache-2.0), one command:
#   bash scripts/search_eval.sh [OUT_DIR]
# Needs pip (the data comes from the bfcl-eval package; nothing else is installed) and cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-target/search-eval}"
VERSION="2026.3.23"
mkdir -p "$OUT/pkg"
if [ ! -d "$OUT/pkg/bfcl_eval/data" ]; then
	python3 -m pip download --quiet --no-deps --dest "$OUT/pkg" "bfcl-eval==$VERSION"
	python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n, sys.argv[2]) for n in z.namelist() if n.startswith('bfcl_eval/data/')]" \
		"$OUT/pkg/bfcl_eval-$VERSION-py3-none-any.whl" "$OUT/pkg"
fi
rm -rf "$OUT/world" "$OUT/queries.json"
python3 scripts/search_eval_data.py "$OUT/pkg/bfcl_eval/data" "$OUT"
cargo run --quiet --release --features bench --example search_eval -- "$OUT"
