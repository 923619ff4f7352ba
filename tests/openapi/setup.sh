#!/usr/bin/env bash
# Installs (once) what tests/openapi.rs runs the OpenAPI toolboxes against, all written by
# others: GitHub's published OpenAPI description (@octokit/openapi), the example
# descriptions of @readme/oas-examples (OpenAPI 3.0 and 3.1, JSON and YAML, Swagger 2.0),
# the Prism mock server that serves a description on loopback, and httpbin (Python) for
# status codes, redirects, headers and bodies. Prints the install folder on stdout.
#
#   tests/openapi/setup.sh [DIR]     default: $CARGO_TARGET_DIR/openapi-deps or target/openapi-deps
set -euo pipefail
OCTOKIT=23.0.2
PRISM=5.16.0
EXAMPLES=8.2.2
HTTPBIN=0.10.4
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-${CARGO_TARGET_DIR:-$here/../../target}/openapi-deps}"
stamp="$dir/.installed-$OCTOKIT-$PRISM-$EXAMPLES-$HTTPBIN"
if [ -f "$stamp" ]; then
	echo "$dir"
	exit 0
fi
command -v npm >/dev/null || { echo "setup.sh: node and npm (Node 20 or newer) are needed for the OpenAPI tests" >&2; exit 1; }
command -v python3 >/dev/null || { echo "setup.sh: python3 is needed for the OpenAPI tests (httpbin)" >&2; exit 1; }
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
	"@octokit/openapi@$OCTOKIT" \
	"@stoplight/prism-cli@$PRISM" \
	"@readme/oas-examples@$EXAMPLES" >&2
python3 -m venv "$dir/venv" >&2
"$dir/venv/bin/pip" install --quiet --disable-pip-version-check "httpbin==$HTTPBIN" >&2
touch "$stamp"
echo "$dir"
