#!/bin/sh
# Installs the official MCP reference servers, and Microsoft's Playwright MCP
# server, that the tests of packages mcp and agentjudge run against. Usage,
# from the repository's root:
#
#	sh mcp/testdata/install-servers.sh [prefix]
#
# The prefix defaults to mcp/testdata/servers (git-ignored), where the tests
# look when GAVEL_MCP_SERVERS is not set. The binaries land in
# <prefix>/node_modules/.bin. The versions are the ones the tests were
# written against; bump them together with the tests.
set -eu

everything=2026.8.31
memory=2026.8.31
filesystem=2026.8.31
playwright=0.0.83

here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${GAVEL_MCP_SERVERS:-$here/servers}}

if ! command -v npm >/dev/null 2>&1; then
	echo "install-servers.sh: npm not found; install Node.js 20 or later" >&2
	exit 1
fi

mkdir -p "$prefix"
npm install --prefix "$prefix" --save-exact --no-audit --no-fund --loglevel=error \
	"@modelcontextprotocol/server-everything@$everything" \
	"@modelcontextprotocol/server-memory@$memory" \
	"@modelcontextprotocol/server-filesystem@$filesystem" \
	"@playwright/mcp@$playwright"

for bin in mcp-server-everything mcp-server-memory mcp-server-filesystem playwright-mcp; do
	if [ ! -x "$prefix/node_modules/.bin/$bin" ]; then
		echo "install-servers.sh: $bin missing from $prefix/node_modules/.bin" >&2
		exit 1
	fi
done
echo "MCP reference servers installed in $prefix"
