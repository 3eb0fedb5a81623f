"""What Do You Meme? (the betting game): react to a scenario, guess, bet, cash in.

Each turn one player, the reactor, rolls a scenario and picks a reaction meme
face down; the others guess it with a meme of their own; then both sides bet
on the guesses. Three rounds with tokens that earn $1 when right, then a
final round betting cash at even odds. The rules as refereed are in
``docs/rules.md``.

The registry (:mod:`partyhost.engine.registry`) lists the game as ``meme``.
Its modules, the same in every game: ``game`` (its declaration), ``deck``, ``state``, ``setup``,
``rules`` (``decide`` and ``tick``: what each command may do), ``flow`` (how
a turn runs on by itself, with its timers), ``evolve``, ``views`` and
``bot``; ``betting`` holds the betting arithmetic.
"""

from __future__ import annotations

from partyhost.engine.meme.game import GAME

__all__ = ["GAME"]
