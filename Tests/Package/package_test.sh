#!/usr/bin/env bash
# Checks the Debian package as lintian sees it (no errors or warnings, each override applied
# and explained) and the modes of its folders; then installs it as a user would, uses it,
# removes it, and checks that nothing is left behind. Installing needs root (dpkg -i writes
# /usr); it says so and skips that part otherwise. Usage: Tests/Package/package_test.sh DEB
set -euo pipefail
deb=$1
here=$(cd "$(dirname "$0")/../.." && pwd)

# What needs no root: lintian's verdict, the overrides it applied, and the modes in the package.
overrides=$here/packaging/debian/lintian-overrides
if grep -v '^#' "$overrides" | grep -q '\*'; then
  echo "package test: FAILED: a wildcard override in $overrides" >&2
  exit 1
fi
# Each override follows a comment that says why it is there.
awk '/^#/ { reason = 1; next } /^$/ { reason = 0; next } !reason { print "no reason above: " $0; bad = 1 } END { exit bad }' \
  "$overrides" >&2 || { echo "package test: FAILED: $overrides" >&2; exit 1; }
report=$(lintian --display-info --show-overrides --tag-display-limit 0 "$deb" 2>&1) || true
errors=$(grep -c '^E:' <<<"$report" || true)
warnings=$(grep -c '^W:' <<<"$report" || true)
shown=$(grep -c '^O:' <<<"$report" || true)
declared=$(grep -c '^inkling-archive: ' "$overrides")
if [ "$errors" != 0 ] || [ "$warnings" != 0 ]; then
  echo "package test: FAILED: lintian: $errors errors, $warnings warnings:" >&2
  echo "$report" >&2
  exit 1
fi
# Every override is used (an unused one shows as a mismatched-override information tag).
if [ "$shown" != "$declared" ] || grep -q 'mismatched-override\|unused-override' <<<"$report"; then
  echo "package test: FAILED: lintian applied $shown of the $declared overrides:" >&2
  echo "$report" >&2
  exit 1
fi
echo "package test: lintian: 0 errors, 0 warnings, $shown overrides applied:"
grep '^O:' <<<"$report"
maintainer=$(dpkg-deb -f "$deb" Maintainer)
if [[ $maintainer != *" <"*@*.*">" ]] || [[ $maintainer == *@localhost* ]]; then
  echo "package test: FAILED: Maintainer: $maintainer" >&2
  exit 1
fi
# The root entry and every folder are drwxr-xr-x, whatever folder the package was built in, so
# the folder `dpkg-deb -x` extracts into is 0755.
contents=$(dpkg-deb -c "$deb")
modes=$(awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" { print }' <<<"$contents")
[ "$(awk 'NR == 1 { print $1, $6 }' <<<"$contents")" = "drwxr-xr-x ./" ] && [ -z "$modes" ] ||
  { echo "package test: FAILED: folders that are not 0755: $(head -n 1 <<<"$contents") $modes" >&2; exit 1; }
extracted=$(mktemp -d)
dpkg-deb -x "$deb" "$extracted/root"
mode=$(stat -c %a "$extracted/root")
rm -rf "$extracted"
[ "$mode" = 755 ] || { echo "package test: FAILED: dpkg-deb -x makes its folder $mode" >&2; exit 1; }
echo "package test: Maintainer: $maintainer; every folder and the root entry 0755"

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
