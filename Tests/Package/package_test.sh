#!/usr/bin/env bash
# Installs the Debian package as a user would, uses it, removes it, and checks that nothing is
# left behind. Needs root (dpkg -i writes /usr); it says so and skips otherwise.
# Usage: Tests/Package/package_test.sh DEB
set -euo pipefail
deb=$1
if [ "$(id -u)" != 0 ]; then
  echo "package test: skipped: installing a .deb needs root (dpkg -i), and this runs as $(id -un)"
  exit 0
fi
if dpkg-query -W -f='${Status}' inkling-archive 2>/dev/null | grep -q "ok installed"; then
  echo "package test: skipped: an inkling-archive package is already installed here; not touching it"
  exit 0
fi
fail() { echo "package test: FAILED: $*" >&2; dpkg -r inkling-archive >/dev/null 2>&1 || true; exit 1; }

dpkg -i "$deb" >/dev/null || fail "dpkg -i $deb"
files=$(dpkg -L inkling-archive | while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done)
version=$(dpkg-deb -f "$deb" Version)

[ "$(command -v inkling-archive)" = /usr/bin/inkling-archive ] || fail "inkling-archive is not /usr/bin/inkling-archive on PATH"
inkling-archive --version | grep -qx "inkling-archive ${version%-*}" || fail "--version says $(inkling-archive --version), the package ${version}"
[ "$(man -w inkling-archive)" = /usr/share/man/man1/inkling-archive.1.gz ] || fail "man -w inkling-archive: $(man -w inkling-archive 2>&1)"
man inkling-archive 2>/dev/null | grep -q "EXAMPLES\|SYNOPSIS" || fail "man inkling-archive shows no page"
# bash-completion's loader finds the script by the command's name, as an interactive shell does.
completion=$(bash -c 'source /usr/share/bash-completion/completions/inkling-archive
  COMP_WORDS=(inkling-archive res); COMP_CWORD=1; COMP_LINE="inkling-archive res"; COMP_POINT=${#COMP_LINE}
  f=$(complete -p inkling-archive | sed -n "s/.*-F \([^ ]*\).*/\1/p"); "$f" inkling-archive res inkling-archive
  printf "%s\n" "${COMPREPLY[@]}"')
grep -qx "restore" <<<"$completion" || fail "bash completes 'inkling-archive res' to '$completion', not restore"
[ -f /usr/share/zsh/vendor-completions/_inkling-archive ] || fail "no zsh completion"
[ -f /usr/share/fish/vendor_completions.d/inkling-archive.fish ] || fail "no fish completion"
for unit in inkling-archive-watch inkling-archive-serve; do
  [ -f /usr/lib/systemd/user/$unit.service ] || fail "no $unit.service"
done
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify /usr/lib/systemd/user/inkling-archive-watch.service \
    /usr/lib/systemd/user/inkling-archive-serve.service || fail "systemd-analyze verify"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/Drafts"
INKLING_ARCHIVE=$work/a.sqlite inkling-archive --quiet import "$work/Drafts" && INKLING_ARCHIVE=$work/a.sqlite inkling-archive list >/dev/null ||
  fail "the installed binary cannot make and list an archive"

dpkg -r inkling-archive >/dev/null || fail "dpkg -r"
left=$(while read -r f; do if [ -e "$f" ]; then echo "$f"; fi; done <<<"$files")
[ -z "$left" ] || fail "left after dpkg -r: $left"
if dpkg-query -W -f='${Status}' inkling-archive 2>/dev/null | grep -q "ok installed"; then fail "still installed"; fi
echo "package test: $deb installed, --version, man -w, bash completion, units verified, removed without a trace"
