#!/bin/sh
# The share of capacity the level setter's waves use, as docs/balance.md reports it: every level
# of `rampart waves --json` for seeds 0..SEEDS-1 and levels 1..LEVELS, summarised by jq.
# Usage: scripts/capacity_use.sh [RAMPART] [SEEDS] [LEVELS]
set -eu
rampart=${1:-target/release/rampart}
seeds=${2:-100}
levels=${3:-14}
seed=0
while [ "$seed" -lt "$seeds" ]; do
    level=1
    while [ "$level" -le "$levels" ]; do
        "$rampart" waves --seed "$seed" --level "$level" --json -
        level=$((level + 1))
    done
    seed=$((seed + 1))
done | jq -s -r '
  def r3: (. * 1000 | round) / 1000;
  def pct: (. * 1000 | round) / 10 | tostring + " %";
  def row($name):
    sort as $u | ($u | length) as $n
    | "| \($name) | \($n) | \(add / $n | r3) | \($u[0] | r3) | \($u[$n * 0.05 | floor] | r3) "
      + "| \($u[$n / 2 | floor] | r3) | \([$u[] | select(. >= 0.9)] | length / $n | pct) "
      + "| \([$u[] | select(. > 1)] | length) |";
  [.[] | . as $l | .waves[] | {level: $l.level, paths: $l.paths, number, kind,
                               used: (.value / .capacity)}] as $w
  | "| waves | count | mean | min | 5th pct | median | ≥ 90 % | over |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ([$w[].used] | row("all")),
    (range(1; $levels + 1) as $k
       | [$w[] | select(.level == $k) | .used] | select(length > 0) | row("level \($k)")),
    ("sequential", "parallel") as $kind
       | [$w[] | select(.kind == $kind) | .used] | row($kind)' --argjson levels "$levels"
