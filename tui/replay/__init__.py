"""Watching a finished game again: the step-by-step screen, its words, and a host-less viewer.

Above the games table (``tui/games.py``), since a replay of any game needs
that game's own way of drawing and telling its steps; the parts each game
provides are in its folder's ``replay.py``.
"""
