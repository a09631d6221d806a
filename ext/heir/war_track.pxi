# -- the war outlook: what a search iteration notes for the advisor

# What one search iteration tracks for the advisor's war outlook: the reward tiles that left each
# city and who took them (a won tile is in its winner's `unused` set).
cdef struct WarTrack:
    uint8_t tiles_n[NCITIES]          # tiles still in the city after the last move seen
    int8_t first[NCITIES]             # who took the city's first tile to leave (-1: none yet)
    int8_t taken[NCITIES][2]          # tiles taken from the city by each player

cdef enum:
    N_WAR_STATS = 2 * NCITIES         # per city: won its next war; per city: tiles taken

cdef inline void track_wars(const State* s, WarTrack* w) noexcept nogil:
    cdef int city, k, p, tile
    for city in range(NCITIES):
        for k in range(s.city_tiles_n[city], w.tiles_n[city]):
            tile = s.city_tiles[city][k]
            p = 0 if s.unused[0] >> tile & 1 else (1 if s.unused[1] >> tile & 1 else -1)
            if w.first[city] == -1:
                w.first[city] = p
            if p >= 0:
                w.taken[city][p] += 1
        w.tiles_n[city] = s.city_tiles_n[city]
