"""Omen in other frameworks: an OpenSpiel game (:mod:`.openspiel`, ``pip install
"omen-search[openspiel]"``) and a PettingZoo AEC environment (:mod:`.pettingzoo`, ``[pettingzoo]``),
both on the Cython core and sharing one fixed action space (:mod:`.actions`)."""
