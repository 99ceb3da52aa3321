#!/usr/bin/env bash
# The binary scripts/build-release makes, the one README "Install" installs, does what the
# debug build's tests check it for: it links nothing but glibc's loader-free static start (or
# Debian's shared libraries where a static archive is missing), and it makes a time-lapse that
# ffprobe reads as H.264 within its level and an animated WebP; and its `serve` sends the security headers on
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
# The stream keeps the limits of the H.264 level it is labelled with (ITU-T H.264, Table A-1:
# level, MaxMBPS, MaxFS, MaxDpbMbs): its frame, its frames a second and its reference frames.
stream=$(ffprobe -v error -select_streams v:0 -show_entries stream=level,width,height,refs -of default=nw=1 \
  "$work/notes.mp4")
field() { sed -n "s/^$1=//p" <<<"$stream"; }
level=$(field level) width=$(field width) height=$(field height) refs=$(field refs)
conformance=$(awk -v level="$level" -v w="$width" -v h="$height" -v refs="$refs" -v fps=10 '
  BEGIN {
    split("10 1485 99 396,11 3000 396 900,12 6000 396 2376,13 11880 396 2376,20 11880 396 2376," \
      "21 19800 792 4752,22 20250 1620 8100,30 40500 1620 8100,31 108000 3600 18000," \
      "32 216000 5120 20480,40 245760 8192 32768,41 245760 8192 32768,42 522240 8704 34816," \
      "50 589824 22080 110400,51 983040 36864 184320,52 2073600 36864 184320," \
      "60 4177920 139264 696320,61 8355840 139264 696320,62 16711680 139264 696320", rows, ",")
    for (i in rows) { split(rows[i], f, " "); if (f[1] == level) { mbps = f[2]; fs = f[3]; dpb = f[4] } }
    mbs = int((w + 15) / 16) * int((h + 15) / 16)
    if (!fs) print "level_idc " level " is not in the level table"
    else if (mbs > fs || mbs * fps > mbps || mbs * refs > dpb) print "a " w "x" h " frame at " fps " fps with " refs " reference frames passes level " level
  }')
[ -z "$conformance" ] || fail "the MP4 does not conform: $conformance"
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

echo "release test: the $kind release binary made an H.264 MP4 ($(stat -c %s "$work/notes.mp4") bytes, ${width}x$height, level $level) and an animated WebP"
