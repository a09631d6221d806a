# cython: language_level=3
# xoshiro256** in C, bit for bit the generator of omen_search/rng.py: every core and the search
# draw from it, so a seed reproduces a game, a determinisation and a search exactly.

from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result

cdef inline uint32_t rng_below(uint64_t* s, uint32_t n) noexcept nogil:
    """Uniform in 0..n-1 by rejection of the top bits (no modulo bias)."""
    cdef int shift
    cdef uint64_t x
    if n <= 1:
        return 0
    shift = __builtin_clzll(<unsigned long long>(n - 1))  # = 64 - bit_length(n - 1)
    while True:
        x = rng_next(s) >> shift
        if x < n:
            return <uint32_t>x

cdef inline void rng_seed(uint64_t* s, uint64_t seed) noexcept nogil:
    """The four words of the state from one 64-bit seed by splitmix64 (omen_search.rng.Rng)."""
    cdef uint64_t x = seed, z
    cdef int i
    for i in range(4):
        x += <uint64_t>0x9E3779B97F4A7C15
        z = x
        z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
        s[i] = z ^ (z >> 31)
