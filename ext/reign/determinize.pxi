# -- re-dealing what a player cannot see (reference: determinized, _deal_unseen)

cdef void determinize(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    cdef int i
    for i in range(4):
        s.rng[i] = rng_next(rng)
