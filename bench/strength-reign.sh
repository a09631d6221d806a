#!/bin/sh
# The Reign of War matches behind docs/strength.md (issue 16, point 8). Re-running finishes what is
# missing (--resume) and writes each row's totals into bench/strength/reign-NAME.json;
# WORKERS=N sets the processes (default 2).
set -e
cd "$(dirname "$0")/strength"
W=${WORKERS:-2}
row() {  # row NAME GAMES BOT_A BOT_B
    omen-search match "$3" "$4" --game reign-of-war --games "$2" --seed 1 --workers "$W" \
        --out "reign-$1.jsonl" --resume --json --report-every 0 > "reign-$1.json"
    echo "reign-$1: $(cat "reign-$1.json")"
}
row ismcts2000-random 400 ismcts:iterations=2000 random
row ismcts2000-greedy 400 ismcts:iterations=2000 greedy
row ismcts2000-pimc2000 400 ismcts:iterations=2000 pimc:iterations=2000
