# shellcheck shell=bash
# What every scripts/bench* shares, sourced (not run) after `set -euo pipefail`:
#
#   bench_start NAME         cd to the repository; $root; $work (bench-work/NAME, made empty);
#                            $log; $results, this run's results file (below), started afresh
#   say TEXT / die TEXT      a progress line / a failure line and exit 1, on standard error
#   bench_build PRODUCT…     one `swift build -c release` of those products (each product once
#                            a run, whichever script asks); $bin is the folder they are in
#   bench_release            the binary README "Install" installs (scripts/build-release, in
#                            .build/fast), built once a run, whichever script asks: $release
#   bench_time NAME CMD…     CMD once under GNU time; its output in $work/NAME.out and .err; its
#                            wall and CPU seconds (user + sys), peak RSS and exit status as rows
#                            NAME.wall, NAME.cpu, NAME.rss, NAME.status of the results, and as
#                            "wall cpu rss_kib status" in $work/NAME.time. Never fails: the
#                            status is a result (bench_ok NAME says whether it was 0).
#   bench_rounds N FN…       N rounds of the shell functions FN…, each timed by bench_time as
#                            FN (one row a round), in turns: the order reverses every other
#                            round, so that a change of the machine's load favours none. The
#                            functions run in a `bash -c` of their own: export the variables
#                            they read.
#   bench_row MEASUREMENT VALUE UNIT [COMMAND]   one row of the results
#   bench_load               the 1-minute load average
#
# The results file, bench-work/results/NAME.tsv, is one line a figure, tab-separated, after a
# header: benchmark, measurement, value, unit, command. scripts/bench-report.py reads it and
# writes the tables; a script's own figures (a count, a size, a line of text) are rows too.
# A run that calls another script (scripts/bench calls three) leaves each one's file beside its
# own.

say() { printf '== %s\n' "$*" >&2; }
die() {
  printf '%s: %s\n' "${bench_name:-bench}" "$*" >&2
  exit 1
}

bench_start() {
  bench_name=$1
  cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
  root=$PWD
  work="$root/bench-work/$bench_name"
  log="$work/bench.log"
  results="$root/bench-work/results/$bench_name.tsv"
  rm -rf "$work"
  mkdir -p "$work" "$root/bench-work/results"
  : >"$log"
  printf 'benchmark\tmeasurement\tvalue\tunit\tcommand\n' >"$results"
  # A script called by another builds nothing the caller built already (BENCH_BUILT).
  export BENCH_BUILT=${BENCH_BUILT:-}
}

bench_build() {
  local product missing=()
  for product in "$@"; do
    case " $BENCH_BUILT " in *" $product "*) ;; *) missing+=("$product") ;; esac
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "build (release): ${missing[*]}"
    # One product at a time: SwiftPM builds one --product per invocation.
    for product in "${missing[@]}"; do
      nice swift build -c release --product "$product" >>"$log" 2>&1 || {
        tail -n 30 "$log" >&2
        die "$product does not build"
      }
      BENCH_BUILT="$BENCH_BUILT $product"
    done
  fi
  # shellcheck disable=SC2034 # for the script that sources this file
  bin=$(swift build -c release --show-bin-path)
}

bench_release() {
  if [ -z "${BENCH_RELEASE:-}" ]; then
    say "build (scripts/build-release)"
    BENCH_RELEASE=$(BUILD_SCRATCH=.build/fast "$root/scripts/build-release" 2>>"$log") || {
      tail -n 30 "$log" >&2
      die "scripts/build-release failed"
    }
    export BENCH_RELEASE
  fi
  # shellcheck disable=SC2034 # for the script that sources this file
  release=$BENCH_RELEASE
}

bench_row() {
  local cells=("$bench_name" "$1" "$2" "$3" "${4:-}") index
  # One line a row, a tab between cells: neither may be in a cell.
  for index in "${!cells[@]}"; do
    cells[index]=${cells[index]//$'\t'/ }
    cells[index]=${cells[index]//$'\n'/ }
  done
  printf '%s\t%s\t%s\t%s\t%s\n' "${cells[@]}" >>"$results"
}

bench_load() { cut -d' ' -f1 /proc/loadavg; }

bench_time() {
  local name=$1 status=0 start end
  shift
  # The wall time from the clock around it: GNU time's own is in hundredths of a second.
  start=$(date +%s%N)
  /usr/bin/time -o "$work/$name.rusage" -f '%U %S %M' "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  end=$(date +%s%N)
  local wall cpu rss
  # The last line: GNU time puts "Command exited with non-zero status N" before it.
  read -r wall cpu rss < <(awk -v a="$start" -v b="$end" 'END { printf "%.4f %.3f %s\n", (b - a) / 1e9, $1 + $2, $3 }' \
    "$work/$name.rusage")
  printf '%s %s %s %s\n' "$wall" "$cpu" "$rss" "$status" >"$work/$name.time"
  local command="$*"
  bench_row "$name.wall" "$wall" s "$command"
  bench_row "$name.cpu" "$cpu" s "$command"
  bench_row "$name.rss" "$rss" KiB "$command"
  bench_row "$name.status" "$status" exit "$command"
}

bench_ok() { [ "$(cut -d' ' -f4 "$work/$1.time")" = 0 ]; }

bench_rounds() {
  local rounds=$1 round step turn
  shift
  for round in $(seq "$rounds"); do
    turn=("$@")
    if [ $((round % 2)) = 0 ]; then
      local reversed=() index
      for ((index = ${#turn[@]} - 1; index >= 0; index--)); do reversed+=("${turn[index]}"); done
      turn=("${reversed[@]}")
    fi
    for step in "${turn[@]}"; do
      export -f "${step?}"
      bench_time "$step" bash -c "$step"
      bench_ok "$step" || die "$step failed (round $round): $(tail -n 3 "$work/$step.err")"
    done
  done
}
