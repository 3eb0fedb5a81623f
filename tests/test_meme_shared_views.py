"""What Do You Meme? views share their public parts between seats, and never go stale."""

from __future__ import annotations

from dataclasses import replace

from memeplay import GAME, new_game
from partyhost.engine.core import apply
from partyhost.engine.rng import Rng


def test_shared_parts_are_built_once_per_state_and_equal_a_fresh_build() -> None:
    state = new_game(4, seed=8)
    rng, checked = Rng(8), 0
    for _ in range(400):
        if GAME.is_over(state):
            break
        viewers = [*state.seats, None]
        warm = {viewer: GAME.view(state, viewer) for viewer in viewers}
        assert warm[0]["history"] is warm[None]["history"], "seats share one public part"
        for viewer in viewers:
            assert GAME.view(replace(state), viewer) == warm[viewer]  # replace: an empty cache
        mover = next(
            (s for s in state.seats if GAME.bot_command(warm[s], rng, 0.0) is not None), None
        )
        if mover is None:
            break
        command = GAME.bot_command(warm[mover], rng, 0.0)
        assert command is not None
        state, _ = apply(GAME, state, mover, command, 0.0)
        assert state.shared_views == {}, "a new state starts without the last state's parts"
        checked += 1
    assert checked > 20 and GAME.is_over(state)
