"""The Grand Melee of Reign of War: four players draft together, then play knockout table games.

``rules`` (its numbers and set-up), ``reference`` (the reference engine, which plays each table game
on Reign of War's reference engine) and ``observe`` (what one player sees).
"""
