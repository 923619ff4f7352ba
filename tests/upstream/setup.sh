#!/usr/bin/env bash
# Installs (once) the real MCP servers and the conformance suite that tests/upstream.rs
# runs engine/upstream against: nobody here wrote them, so they keep the client honest.
# Prints the install folder on stdout; npm's and pip's noise goes to stderr.
#
#   tests/upstream/setup.sh [DIR]     default: $CARGO_TARGET_DIR/upstream-servers or target/upstream-servers
#
# DIR/node_modules holds the npm packages, DIR/venv a Python venv with mcp-server-time.
set -euo pipefail
EVERYTHING=2026.8.31
FILESYSTEM=2026.8.31
MEMORY=2026.8.31
CONFORMANCE=0.1.16
GLOB=11.0.3
TIME=2026.10.19
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-${CARGO_TARGET_DIR:-$here/../../target}/upstream-servers}"
stamp="$dir/.installed-$EVERYTHING-$FILESYSTEM-$MEMORY-$CONFORMANCE-$GLOB-$TIME"
if [ -f "$stamp" ]; then
	echo "$dir"
	exit 0
fi
command -v npm >/dev/null || { echo "setup.sh: node and npm (Node 20 or newer) are needed for the upstream server tests" >&2; exit 1; }
command -v python3 >/dev/null || { echo "setup.sh: python3 (3.10 or newer) is needed for the upstream server tests" >&2; exit 1; }
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
	"@modelcontextprotocol/server-everything@$EVERYTHING" \
	"@modelcontextprotocol/server-filesystem@$FILESYSTEM" \
	"@modelcontextprotocol/server-memory@$MEMORY" \
	"@modelcontextprotocol/conformance@$CONFORMANCE" \
	"glob@$GLOB" >&2
# The conformance build imports globSync from node:fs, which Node 20 does not have (its
# one use, a `**/checks.json` search with `cwd`, is the glob package's globSync too): move
# that name from the fs import to an import from glob. Idempotent.
conf="$dir/node_modules/@modelcontextprotocol/conformance/dist"
for file in "$conf"/*.js; do
	perl -0pi -e 's/import\s*\{([^}]*?)\bglobSync as (\w+),?([^}]*)\}\s*from\s*"(?:node:)?fs";/import{$1$3}from"fs";import{globSync as $2}from"glob";/g' "$file"
done
if grep -qE 'globSync as \w+[^}]*\}\s*from\s*"(node:)?fs"' "$conf"/*.js; then
	echo "setup.sh: could not patch the conformance suite's fs.globSync import in $conf" >&2
	exit 1
fi
python3 -m venv "$dir/venv" >&2
"$dir/venv/bin/pip" install --quiet --disable-pip-version-check "mcp-server-time==$TIME" >&2
touch "$stamp"
echo "$dir"
