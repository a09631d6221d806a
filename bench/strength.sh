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
# OMEGA: the ritual (issue 18, point 8): ISMCTS against 1, 2 and 3 random and greedy bots, rotated
# through the seats (24 games a row: the shared 2-core machine; --games 120 --resume goes on), and the
# first-seat advantage of each player count between random bots (balance reports)
row omega-ismcts2000-random 24 ismcts:iterations=2000 random --game omega
row omega3-ismcts2000-random 24 ismcts:iterations=2000 random random --game omega-3
row omega4-ismcts2000-random 24 ismcts:iterations=2000 random random random --game omega-4
row omega-ismcts2000-greedy 24 ismcts:iterations=2000 greedy --game omega
row omega3-ismcts2000-greedy 24 ismcts:iterations=2000 greedy greedy --game omega-3
row omega4-ismcts2000-greedy 24 ismcts:iterations=2000 greedy greedy greedy --game omega-4
for n in 2 3 4; do
    name=$([ "$n" = 2 ] && echo omega || echo "omega$n")-balance-random
    [ -s "$name.json" ] || omen-search balance --game omega --players-count "$n" --bots random --games 2000 --seed 1 \
        --workers "$W" --json --quiet > "$name.json"
    echo "$name: $(head -c 200 "$name.json")"
done
# The round robin behind the review's calibration (issue 21, point 5; docs/analysis.md): every pair of
# random, first, greedy, ismcts:iterations=300 and ismcts:iterations=2000 (three pairs are rows above),
# fit to one Elo scale by bench/round_robin.py
row first-random 200 first random
row greedy-random 200 greedy random
row greedy-first 200 greedy first
row ismcts300-random 200 ismcts:iterations=300 random
row ismcts300-first 200 ismcts:iterations=300 first
row ismcts2000-first 40 ismcts:iterations=2000 first  # 40 games: first loses every game to random already, and its long games cost ismcts dear
row ismcts2000-ismcts300 200 ismcts:iterations=2000 ismcts:iterations=300
# At equal time (issue 22): both bots search 0.1 s a move; each game is played in one process, the
# two bots alternating on its CPU, so a busy machine slows both alike. The techniques of the search,
# each against today's ismcts (docs/strength.md, "At equal time")
row time0.1-ismcts-greedy 400 ismcts:seconds=0.1 greedy
row time0.1-mast-ismcts 400 ismcts:seconds=0.1,rollout=mast ismcts:seconds=0.1
row time0.1-reuse-ismcts 400 ismcts:seconds=0.1,reuse=1 ismcts:seconds=0.1
row time0.1-mast-reuse-ismcts 400 ismcts:seconds=0.1,rollout=mast,reuse=1 ismcts:seconds=0.1
row time0.1-mastkeep-ismcts 400 ismcts:seconds=0.1,rollout=mast,reuse=mast ismcts:seconds=0.1  # MAST's ratings kept, not the tree
row time1-mast-reuse-ismcts 400 ismcts:seconds=1,rollout=mast,reuse=1 ismcts:seconds=1  # ten times the cost
# The learned evaluation (omen_search/data/value-heir.json): playouts cut at once (cutoff 0, the
# file's) and after ten uniform plies (stopped at 48 games, clearly worse)
row time0.1-eval-ismcts 400 ismcts:seconds=0.1,eval=learned ismcts:seconds=0.1
row time0.1-eval-cutoff10-ismcts 48 ismcts:seconds=0.1,eval=learned,cutoff=10 ismcts:seconds=0.1
# Belief weighting of the deals by the other player's moves, with the learned model of play
# (omen_search/data/policy-heir.json) as fitted (belief=1)
row time0.1-belief-ismcts 400 ismcts:seconds=0.1,belief=1 ismcts:seconds=0.1
# The omen bot (ismcts with MAST and tree reuse) against ismcts at equal time in the other games
row reign-time0.1-omen-ismcts 100 omen:seconds=0.1 ismcts:seconds=0.1 --game reign-of-war
row combined-time0.1-omen-ismcts 100 omen:seconds=0.1 ismcts:seconds=0.1 --game heir+reign
row omega-time0.1-omen-ismcts 100 omen:seconds=0.1 ismcts:seconds=0.1 --game omega
row omnia-time0.1-omen-ismcts 100 omen:seconds=0.1 ismcts:seconds=0.1 --game omnia
# ... and against ismcts in every other seat of the games of more than two players (rotation sets)
row omnia3-time0.1-omen-ismcts 48 omen:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 --game omnia-3
row omnia4-time0.1-omen-ismcts 48 omen:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 --game omnia-4
row omega3-time0.1-omen-ismcts 48 omen:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 --game omega-3
row omega4-time0.1-omen-ismcts 48 omen:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 --game omega-4
row melee-time0.1-omen-ismcts 48 omen:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 ismcts:seconds=0.1 \
    --game reign-of-war-melee
# MAST at equal iterations: what each MAST iteration is worth before its lost speed is counted
row mast1000-ismcts1000 400 ismcts:iterations=1000,rollout=mast ismcts:iterations=1000
# OMNIA (issue 19, point 8): ISMCTS against random and against the greedy deck builder, two players
row omnia-ismcts2000-random 100 ismcts:iterations=2000 random --game omnia
row omnia-ismcts2000-greedy 400 ismcts:iterations=2000 greedy --game omnia
# OMNIA, four players: ISMCTS against three random and three greedy bots, rotated through the seats
# (the default flavors, one each; the first player drawn from each deal, N-setup-4)
row omnia4-ismcts2000-random 96 ismcts:iterations=2000 random random random --game omnia-4
row omnia4-ismcts2000-greedy 96 ismcts:iterations=2000 greedy greedy greedy --game omnia-4
# OMNIA's flavors and first seat (docs/balance.md): flavors dealt to each seat in turn, seat 0 first
# (--flavors rotate); greedy and random bots at every player count
for n in 2 3 4; do
    for bot in greedy random; do
        name=$([ "$n" = 2 ] && echo omnia || echo "omnia$n")-balance-$bot
        [ -s "$name.json" ] || omen-search balance --game omnia --players-count "$n" --bots "$bot" --flavors rotate \
            --games 2000 --seed 1 --workers "$W" --json --quiet > "$name.json"
        echo "$name: $(head -c 200 "$name.json")"
    done
done
