#!/bin/sh
# Every match behind docs/strength.md. Re-running finishes what is missing (--resume) and prints
# each row's totals into bench/strength/NAME.json; WORKERS=N sets the processes (default 2).
set -e
cd "$(dirname "$0")/strength"
W=${WORKERS:-2}
row() {  # row NAME GAMES BOT_A BOT_B [MATCH OPTIONS...]
    name=$1 games=$2 a=$3 b=$4
    shift 4
    omen-search match "$a" "$b" "$@" --games "$games" --seed 1 --workers "$W" --out "$name.jsonl" --resume \
        --json --report-every 0 > "$name.json"
    echo "$name: $(cat "$name.json")"
}
row ismcts2000-greedy 400 ismcts:iterations=2000 greedy
row ismcts2000-pimc2000 400 ismcts:iterations=2000 pimc:iterations=2000
row mo2000-so2000 400 ismcts-mo:iterations=2000 ismcts:iterations=2000
row ismcts100-greedy 400 ismcts:iterations=100 greedy
row ismcts300-greedy 400 ismcts:iterations=300 greedy
row ismcts1000-greedy 400 ismcts:iterations=1000 greedy
row ismcts5000-greedy 400 ismcts:iterations=5000 greedy
row ismcts2000-random 400 ismcts:iterations=2000 random
row ismcts20000-greedy 100 ismcts:iterations=20000 greedy  # 100 games: ten times the search of the others
# Reign of War (issue 16, point 8)
row reign-ismcts2000-random 400 ismcts:iterations=2000 random --game reign-of-war
row reign-ismcts2000-greedy 400 ismcts:iterations=2000 greedy --game reign-of-war
row reign-ismcts2000-pimc2000 400 ismcts:iterations=2000 pimc:iterations=2000 --game reign-of-war
# The combined game (issue 17, point 5): ISMCTS against greedy as for the other games
row combined-ismcts2000-greedy 400 ismcts:iterations=2000 greedy --game heir+reign
# The Grand Melee's draft (issue 17, point 5): ISMCTS drafting against random drafting, every table
# game played by greedy; four bots in rotation sets, so the extra bots follow B as match options
row melee-draft-ismcts1000 2196 ismcts:iterations=1000,table=greedy random:table=greedy random:table=greedy \
    random:table=greedy --game reign-of-war-melee
# OMNIA (issue 19, point 8): ISMCTS against random and against the greedy deck builder, two players
row omnia-ismcts2000-random 100 ismcts:iterations=2000 random --game omnia
row omnia-ismcts2000-greedy 100 ismcts:iterations=2000 greedy --game omnia
