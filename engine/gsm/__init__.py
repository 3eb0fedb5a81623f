"""Game, Set, Match!: four games (Stealing Home, Scramble, Gridiron, Four Corners) on one deck.

Each variant's package holds only what differs; what they share lives here, in
the module named for its job, with the cards, placements and the solver.
"""
