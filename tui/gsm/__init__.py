"""Game, Set, Match! in the terminal: four games on one shared board.

One module per game, named for it (``stealing_home``, ``scramble``,
``gridiron``, ``four_corners``): its keys and actions. What the four share:
``screen`` (the table and its keys: board, hand, scores, legend, log),
``moves`` (choices to legal commands), ``picture`` (what the board shows),
``text`` (words and rules), ``results``, ``replay``; the widgets ``board``,
``cards``, ``hand`` and ``scores``.
"""
