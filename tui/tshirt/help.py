"""How to play The T-Shirt Game, as the help screen shows it (keys come from the screens)."""

from __future__ import annotations

RULES = """\
Collect Hot or Not cards worth the target score (3000 by default) to win.

Each round one player is the judge. A T-shirt card is turned face up, and
everyone else picks the slogan from their hand that suits the shirt best.
The slogans are shuffled and revealed without names; the judge picks the
funniest match. Its author draws a Hot or Not card and scores its points
(some cards are worth little, or even less than nothing).

The Booyah card: keep it for 400 points, or give it up to steal a random
Hot or Not card from another player who has one.

Then everyone is dealt back up to 3 slogans and the next player judges.
The first to reach the target wins; if the Hot or Not deck runs out,
the highest score wins."""
