"""Watching a finished game again; each game lends its drawing from its folder's ``replay.py``."""
