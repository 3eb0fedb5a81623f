"""Game, Set, Match! in the terminal: four games on one shared board.

``screen`` holds the shared table and each game's keys; ``moves`` turns choices into legal
commands and decides what the board shows; ``boardview`` and ``cards`` draw it and the hand.
"""
