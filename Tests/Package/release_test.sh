#!/usr/bin/env bash
# The binary scripts/build-release makes, the one README "Install" installs, does what the
# debug build's tests check it for: it links nothing but glibc's loader-free static start (or
# Debian's shared libraries where a static archive is missing), and it makes a time-lapse that
# ffprobe reads as H.264 and an animated WebP; and its `serve` sends the security headers on
# the error responses libmicrohttpd writes itself (a header too large, an HTTP version it does
# not speak), through the patch build-release applies to libmicrohttpd. Usage: Tests/Package/release_test.sh BINARY WORKDIR
set -euo pipefail
binary=$1 work=$2
fail() { echo "release test: FAILED: $*" >&2; exit 1; }

linkage=$(ldd "$binary" 2>&1 || true)
if grep -q "not a dynamic executable" <<<"$linkage"; then kind="static"; else kind="dynamic"; fi
"$binary" --version --verbose | grep -q "FFmpeg" || fail "--version --verbose names no FFmpeg"

export INKLING_ARCHIVE=$work/release.sqlite
drafts=$work/Drafts
mkdir -p "$drafts"
# A real device drawing, in a draft file as the app writes it.
drawing=$(base64 -w0 "$(dirname "$0")/../Fixtures/pkdrawing/handwritten-half-notes.pkdrawing")
printf '{"drawingData":"%s","color":{"r":1,"g":1,"b":1,"a":1}}' "$drawing" >"$drafts/Notes-2025-10-05T14:03:12Z.inkling"
"$binary" --quiet import "$drafts" || fail "import"
"$binary" --quiet timelapse Notes --duration 4s --fps 10 --size 320x240 -o "$work/notes.mp4" || fail "timelapse to MP4"
"$binary" --quiet timelapse Notes --duration 3s --fps 5 --size 160x120 -o "$work/notes.webp" || fail "timelapse to WebP"
codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 "$work/notes.mp4")
[ "$codec" = h264 ] || fail "ffprobe reads the MP4's codec as '$codec', not h264"
[ "$(head -c 4 "$work/notes.webp")" = RIFF ] && [ "$(dd if="$work/notes.webp" bs=1 skip=8 count=4 2>/dev/null)" = WEBP ] ||
  fail "the WebP is not a RIFF WEBP file"
grep -q ANIM <(head -c 64 "$work/notes.webp") || fail "the WebP is not animated"
# serve: libmicrohttpd's own 431 and 505 carry the headers every other response carries.
XDG_STATE_HOME="$work/state" "$binary" serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$work/serve.out" ] && break; sleep 0.1; done
port=$(sed -n 's|^http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/serve.out")
[ -n "$port" ] || fail "serve printed no address: $(cat "$work/serve.out" "$work/serve.err")"
# The head of one HTTP request sent on a new connection; the response's status line and headers.
head_of_response() {
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf '%s' "$1" >&3
  sed '/^\r$/q' <&3
  exec 3>&-
}
checked=""
long=$(head -c 40000 /dev/zero | tr '\0' a)
for request in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: $long\r\n\r\n" "GET / HTTP/7.0\r\nHost: 127.0.0.1\r\n\r\n"; do
  response=$(head_of_response "$(printf "$request")")
  status=$(head -n 1 <<<"$response" | cut -d ' ' -f 2)
  case $status in 431 | 505) ;; *) fail "expected libmicrohttpd's own 431 or 505, got: $(head -n 1 <<<"$response")" ;; esac
  if [ "$kind" = static ]; then
    for header in "Content-Security-Policy: default-src 'none'" "X-Content-Type-Options: nosniff" "X-Frame-Options: DENY"; do
      grep -qi "^$header" <<<"$response" || fail "libmicrohttpd's own $status lacks '$header': $response"
    done
    checked="$checked $status"
  fi
done
kill $serve
wait $serve 2>/dev/null || true
trap - EXIT
if [ -n "$checked" ]; then
  echo "release test: libmicrohttpd's own$checked responses carry the security headers"
else
  echo "release test: the dynamic binary uses Debian's libmicrohttpd, whose own error responses lack the security headers"
fi

echo "release test: the $kind release binary made an H.264 MP4 ($(stat -c %s "$work/notes.mp4") bytes) and an animated WebP"
