"""Game, Set, Match! in the terminal: four games on one shared board.

One module per game, named for it (``stealing_home``, ``scramble``,
``gridiron``, ``four_corners``): its keys and actions. What the four share:
``screen`` (the table: board, hand, scores, legend, log), ``keys``,
``moves`` (choices to legal commands), ``picture`` (what the board shows),
``text`` (words), ``results`` and ``help``; the widgets ``board``,
``cards``, ``hand`` and ``scores``.
"""
