"""The bot plays from its view: a slogan from its hand, a revealed slogan as judge."""

from __future__ import annotations

from partyhost.engine.rng import Rng
from tshirtplay import GAME, hand, start, submit_all


def test_bot_plays_a_slogan_from_its_own_hand() -> None:
    state = start()
    command = GAME.bot_command(GAME.view(state, 1), Rng(3), 0.0)
    assert command is not None and command["type"] == "submit"
    assert command["card"] in hand(state, 1)


def test_bot_judge_picks_a_revealed_slogan_naming_the_version_it_saw() -> None:
    state = submit_all(start())
    command = GAME.bot_command(GAME.view(state, 0), Rng(3), 0.0)
    assert command is not None and command["type"] == "pick"
    assert command["index"] in (0, 1) and command["v"] == state.version


def test_bot_waits_when_it_has_nothing_to_do() -> None:
    state = start()
    assert GAME.bot_command(GAME.view(state, 0), Rng(3), 0.0) is None
    assert GAME.bot_command(GAME.view(state, None), Rng(3), 0.0) is None


def test_bot_is_deterministic_given_its_generator() -> None:
    view = GAME.view(start(hand_size=7), 1)
    first = [GAME.bot_command(view, Rng(seed), 0.0) for seed in range(10)]
    again = [GAME.bot_command(view, Rng(seed), 0.0) for seed in range(10)]
    assert first == again
    assert len({command["card"] for command in first if command}) > 1
