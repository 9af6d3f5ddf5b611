#!/bin/sh
# Installs gavel from a release: picks the archive for this machine, checks
# its SHA-256 against the release's checksums.txt, and puts gavel in a
# directory (docs/install.md).
#
#   curl -fsSL https://raw.githubusercontent.com/gavelhq/gavel/main/install.sh | sh
#   curl -fsSL https://raw.githubusercontent.com/gavelhq/gavel/main/install.sh | sh -s -- v1.2.3
#
# The first argument, or GAVEL_VERSION, is the release: a tag such as
# v1.2.3, or latest (the default). The environment may also say:
#
#   GAVEL_INSTALL_DIR       where gavel goes; by default /usr/local/bin when it
#                           is writable, else ~/.local/bin
#   GAVEL_INSTALL_OS        linux, darwin or windows, and amd64 or arm64: the
#   GAVEL_INSTALL_ARCH      archive for another machine than this one
#   GAVEL_INSTALL_BASE_URL  where the releases are, laid out as GitHub lays
#                           them out: BASE/download/TAG/FILE and
#                           BASE/latest/download/FILE (a mirror, or a test's
#                           server)
#
# Nothing is installed unless the archive's checksum is the one the
# release lists.
set -eu

base=${GAVEL_INSTALL_BASE_URL:-https://github.com/gavelhq/gavel/releases}
version=${1:-${GAVEL_VERSION:-latest}}

fail() {
	echo "install.sh: $*" >&2
	exit 1
}

case $version in
latest | v[0-9]*) ;;
*) fail "\"$version\" is not a release: give a tag such as v1.2.3, or latest. To build a commit, use Go: go install github.com/gavelhq/gavel/cmd/gavel@$version" ;;
esac

os=${GAVEL_INSTALL_OS:-}
if [ -z "$os" ]; then
	case $(uname -s) in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
	*) fail "no release for $(uname -s): build gavel with Go (go install github.com/gavelhq/gavel/cmd/gavel@latest)" ;;
	esac
fi
arch=${GAVEL_INSTALL_ARCH:-}
if [ -z "$arch" ]; then
	case $(uname -m) in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) fail "no release for $(uname -m) processors: build gavel with Go (go install github.com/gavelhq/gavel/cmd/gavel@latest)" ;;
	esac
	# A shell under Rosetta says x86_64 on an Apple silicon Mac: take the
	# native build.
	if [ "$os" = darwin ] && [ "$arch" = amd64 ] && [ "$(sysctl -n hw.optional.arm64 2>/dev/null)" = 1 ]; then
		arch=arm64
	fi
fi
case $os/$arch in
linux/amd64 | linux/arm64 | darwin/amd64 | darwin/arm64) archive=gavel_${os}_${arch}.tar.gz binary=gavel ;;
windows/amd64 | windows/arm64) archive=gavel_${os}_${arch}.zip binary=gavel.exe ;;
*) fail "no release for $os/$arch: GAVEL_INSTALL_OS is linux, darwin or windows, GAVEL_INSTALL_ARCH amd64 or arm64" ;;
esac

if [ "$version" = latest ]; then
	url=$base/latest/download
else
	url=$base/download/$version
fi

dir=${GAVEL_INSTALL_DIR:-}
if [ -z "$dir" ]; then
	if [ -w /usr/local/bin ]; then
		dir=/usr/local/bin
	elif [ -n "${HOME:-}" ]; then
		dir=$HOME/.local/bin
	else
		fail "/usr/local/bin is not writable and HOME is not set: say where gavel goes with GAVEL_INSTALL_DIR"
	fi
fi

# download URL FILE
if command -v curl >/dev/null 2>&1; then
	download() { curl -fsSL --retry 3 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
	download() { wget -q -O "$2" "$1"; }
else
	fail "needs curl or wget to download the release"
fi

# sha256 FILE prints FILE's SHA-256 in hex.
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
	sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
elif command -v openssl >/dev/null 2>&1; then
	sha256() { openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1; }
else
	fail "needs sha256sum, shasum or openssl to check the archive's checksum"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t gavel-install)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

download "$url/checksums.txt" "$tmp/checksums.txt" ||
	fail "could not download $url/checksums.txt: is $version a release of gavel?"
download "$url/$archive" "$tmp/$archive" ||
	fail "could not download $url/$archive"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "$url/checksums.txt lists no $archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] ||
	fail "$archive's SHA-256 is $got, but checksums.txt says $want: the download is damaged or not the release's; nothing was installed"

mkdir "$tmp/x"
case $archive in
*.zip)
	if command -v unzip >/dev/null 2>&1; then
		unzip -q "$tmp/$archive" "$binary" -d "$tmp/x"
	else
		tar -xf "$tmp/$archive" -C "$tmp/x" "$binary" # bsdtar, as Windows has, reads zip
	fi
	;;
*) tar -xzf "$tmp/$archive" -C "$tmp/x" "$binary" ;;
esac

mkdir -p "$dir" || fail "could not create $dir: say where gavel goes with GAVEL_INSTALL_DIR"
# Copied beside its place, then renamed over it, so that a gavel running
# there now is never half overwritten.
cp "$tmp/x/$binary" "$dir/.$binary.new" || fail "could not write to $dir: say where gavel goes with GAVEL_INSTALL_DIR"
chmod 755 "$dir/.$binary.new"
mv -f "$dir/.$binary.new" "$dir/$binary"

echo "installed $dir/$binary ($version, $os/$arch)"
case ":${PATH:-}:" in
*":$dir:"*) ;;
*) echo "$dir is not on your PATH: add it, or run $dir/$binary" ;;
esac
