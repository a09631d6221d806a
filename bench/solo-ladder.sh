#!/bin/sh
# The difficulty ladder behind docs/strength.md: each bot against the Corrupted Heir at each level.
# Re-running finishes what is missing (--resume) and writes each cell's totals into
# bench/strength/solo-BOT-LEVEL.json; WORKERS=N sets the processes (default 2).
set -e
cd "$(dirname "$0")/strength"
W=${WORKERS:-2}
cell() {  # cell BOT LEVEL [GAMES [NAME]]
    name=${4:-"solo-$(echo "$1" | tr -d ':=' | sed 's/iterations//')-$2"}
    omen-search match "$1" corrupted-heir --game heir-solo --level "$2" --games "${3:-400}" --seed 1 \
        --workers "$W" --out "$name.jsonl" --resume --json --report-every 0 > "$name.json"
    echo "$name: $(cat "$name.json")"
}
for bot in random greedy ismcts:iterations=300 ismcts:iterations=2000; do
    for level in novice normal hard brutal; do
        cell "$bot" "$level"
    done
done
# what the two hardest levels mean for a strong player (200 games each: ten times the search)
cell ismcts:iterations=20000 hard 200
cell ismcts:iterations=20000 brutal 200
# at equal time, 1 s a move (issue 22: the goal is at least 95% against brutal); the MAST + reuse bot
# against plain ISMCTS at the same time (100 games each: about 20 s a game with two processes)
cell ismcts:seconds=1,rollout=mast,reuse=1 brutal 100 solo-time1-mast-reuse-brutal
cell ismcts:seconds=1 brutal 100 solo-time1-ismcts-brutal
