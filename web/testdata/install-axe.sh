#!/bin/sh
# Installs axe-core, the accessibility engine the web app's browser tests
# run on every page (web/a11y_test.go). Usage, from the repository's root:
#
#	sh web/testdata/install-axe.sh [prefix]
#
# The prefix defaults to web/testdata/axe (git-ignored), where the tests
# look when GAVEL_AXE is not set. The script lands in
# <prefix>/node_modules/axe-core/axe.min.js. The version is the one the
# tests were written against (TestBrowserAccessible checks it); bump them
# together.
set -eu

axe=4.14.1

here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${GAVEL_AXE:-$here/axe}}

if ! command -v npm >/dev/null 2>&1; then
	echo "install-axe.sh: npm not found; install Node.js 20 or later" >&2
	exit 1
fi

mkdir -p "$prefix"
npm install --prefix "$prefix" --save-exact --no-audit --no-fund --loglevel=error "axe-core@$axe"

if [ ! -f "$prefix/node_modules/axe-core/axe.min.js" ]; then
	echo "install-axe.sh: axe.min.js missing from $prefix/node_modules/axe-core" >&2
	exit 1
fi
echo "axe-core $axe installed in $prefix"
