"""How to play What Do You Meme?, as the help screen shows it (keys come from the screens)."""

from __future__ import annotations

RULES = """\
Four rounds; in each, every player is the reactor once. The reactor rolls
two dice for a scenario (or writes one, if the room allows) and picks one
of their 7 memes face down. Everyone else guesses it by playing a meme from
their own hand, face down.

The reactor bets 1 to 3 tokens on the others' guesses. The guesses are
shown, and everyone else bets up to 3 tokens (at most 2 on their own
guess). Then the reactor's meme is revealed: each token on a right guess
pays $1. In the final round you bet your own cash instead: a right bet
doubles, a wrong one is lost. Most money after round 4 wins."""
