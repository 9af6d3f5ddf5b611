#!/bin/sh
# bench/size.sh [TOP]: where gavel's bytes go. Builds gavel as a release
# does, but with its symbol table (which a release strips), and sums the
# sizes of its code symbols (go tool nm -size, the functions' machine code)
# by module, biggest first: the TOP (default 15) largest, and the whole.
# The runtime's tables (pclntab, types) and data are not split by module;
# they grow with the code. Figures: bench/README.md, "The binary's size".
#
#   sh bench/size.sh
#   GOOS=darwin GOARCH=arm64 sh bench/size.sh 30
set -eu
cd "$(dirname "$0")/.."
top=${1:-15}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/gavel
echo "gavel for $(go env GOOS)/$(go env GOARCH), symbols kept: $(wc -c <"$bin") bytes"
go tool nm -size "$bin" | awk -v top="$top" '
	$3 == "T" || $3 == "t" {
		name = $0
		sub(/^ *[0-9a-f]+ +[0-9]+ +[Tt] +/, "", name)
		sub(/^type:\.(eq|hash)\./, "", name)
		first = substr(name, 1, index(name, "/") - 1)
		if (first !~ /^[a-z0-9-]+(\.[a-z0-9-]+)+$/) {
			# No domain first: the standard library, or package main.
			module = name ~ /^main\./ ? "github.com/gavelhq/gavel" : "std"
		} else {
			# A module path is domain/name, or domain/owner/name on GitHub
			# and golang.org/x.
			split(name, part, "/")
			n = first == "github.com" || first == "golang.org" ? 3 : 2
			sub(/[.(].*$/, "", part[n]) # the symbol, of a package at the root of its module
			module = first
			for (i = 2; i <= n; i++) module = module "/" part[i]
		}
		size[module] += $2; total += $2
	}
	END {
		for (m in size) printf "%8.2f MB %5.1f%%  %s\n", size[m] / 1e6, 100 * size[m] / total, m | "sort -rn | head -n " top
		close("sort -rn | head -n " top)
		printf "%8.2f MB 100.0%%  code in all\n", total / 1e6
	}'
