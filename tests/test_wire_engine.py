"""What the games promise a client about templates, versions, deadlines and seats.

Each test is about one promise docs/games-wire.md makes, checked through the
engine alone on seeded games the bots play.
"""

from __future__ import annotations

from partyhost.engine.core import apply
from partyhost.engine.registry import get_game
from wiregames import deck_for, offered, reach, templates

# --- templates a client may send as is --------------------------------------------


def test_every_meme_pick_template_is_a_command_the_table_accepts_as_sent() -> None:
    game = get_game("meme")
    step = reach("meme", 3, offered("react"))
    memes = set(range(len(deck_for("meme").memes)))
    for kind in ("react", "guess"):
        found = templates(game, step.state, kind)
        assert found, kind
        for seat, template in found:
            apply(game, step.state, seat, template, step.now)
        for seat in {seat for seat, _ in found}:
            assert {t["meme"] for s, t in found if s == seat} == memes
