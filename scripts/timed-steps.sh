#!/usr/bin/env bash
# `make test`'s steps one after another, each timed; the table of durations is printed at the end,
# whether every step passed or one failed (the failing one is named), so a slow step is visible.
set -uo pipefail
make_cmd="${MAKE:-make}"
names=()
seconds=()
outcome="all checks passed"
status=0
for step in "$@"; do
  start=$(date +%s)
  if ! "$make_cmd" --no-print-directory "$step"; then
    status=1
    outcome="$step failed"
  fi
  names+=("$step")
  seconds+=($(($(date +%s) - start)))
  [ "$status" -eq 0 ] || break
done
total=0
echo
echo "make test — time per step"
for i in "${!names[@]}"; do
  printf '  %-16s %5d s\n' "${names[$i]}" "${seconds[$i]}"
  total=$((total + seconds[i]))
done
printf '  %-16s %5d s (%d min %d s)\n' "total" "$total" $((total / 60)) $((total % 60))
echo "make test: $outcome"
exit "$status"
