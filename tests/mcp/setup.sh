#!/usr/bin/env bash
# Creates (once) a virtualenv holding the pinned official MCP Python SDK, used as a real
# client by tests/mcp/client_test.py. Prints the venv's python on stdout; pip's noise
# goes to stderr.
#
#   tests/mcp/setup.sh [VENV_DIR]     default: $CARGO_TARGET_DIR/mcp-venv or target/mcp-venv
set -euo pipefail
MCP_VERSION=2.3.0
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-${CARGO_TARGET_DIR:-$here/../../target}/mcp-venv}"
python="$venv/bin/python"
if [ -x "$python" ] && "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
	echo "$python"
	exit 0
fi
command -v python3 >/dev/null || { echo "setup.sh: python3 (3.10 or newer) is needed for the MCP client tests" >&2; exit 1; }
python3 -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2
echo "$python"
