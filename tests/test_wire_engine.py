"""What the games promise a client about templates, versions, deadlines and seats.

Each test is about one promise docs/games-wire.md makes, checked through the
engine alone on seeded games the bots play.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply, apply_tick
from partyhost.engine.registry import get_game
from wiregames import START, deck_for, offered, reach, templates

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


# --- versioned commands -----------------------------------------------------------


def _another_seat_goes_away(state: Any, seat: int, now: float) -> Any:
    other = next(s for s in state.seats if s != seat)
    away = {"type": "seat_away", "seat": other}
    changed, _ = apply(get_game("gridiron"), state, SYSTEM_SEAT, away, now)
    return changed


def test_gridiron_place_templates_carry_the_version_and_go_stale_when_the_table_changes() -> None:
    game = get_game("gridiron")
    step = reach("gridiron", 3, offered("place"), rules={"hints": True})
    ((seat, template),) = templates(game, step.state, "place")
    assert template["v"] == step.state.version
    command = {"type": "place", **template["fits"][0], "v": template["v"]}
    apply(game, step.state, seat, command, step.now)
    changed = _another_seat_goes_away(step.state, seat, step.now)
    with pytest.raises(IllegalMove) as refused:
        apply(game, changed, seat, command, step.now)
    assert refused.value.code == "stale"
    without_version = {key: value for key, value in command.items() if key != "v"}
    apply(game, changed, seat, without_version, step.now)


@pytest.mark.parametrize("kind", ["draw", "pass"])
def test_gridiron_draw_and_pass_templates_carry_the_version(kind: str) -> None:
    game = get_game("gridiron")
    state = reach("gridiron", 3, offered("draw"), seed=5).state
    if kind == "pass":
        state = dataclasses.replace(state, pile=())
    ((seat, template),) = templates(game, state, kind)
    assert template == {"type": kind, "v": state.version}
    apply(game, state, seat, template, START)
    changed = _another_seat_goes_away(state, seat, START)
    with pytest.raises(IllegalMove) as refused:
        apply(game, changed, seat, template, START)
    assert refused.value.code == "stale"


# --- deadlines in views -----------------------------------------------------------


def test_a_tshirt_view_has_no_deadline_before_the_opening_deal_then_the_timer() -> None:
    game = get_game("tshirt")
    state = game.start(deck_for("tshirt"), [0, 1, 2], {"submit_timer": 30}, 1)
    assert game.deadline(state) == 0.0
    assert game.view(state, 0)["phase"] == "starting"
    assert game.view(state, 0)["deadline"] is None
    state, _ = apply_tick(game, state, START)
    assert game.view(state, 0)["phase"] == "submitting"
    assert game.view(state, None)["deadline"] == START + 30.0


def test_a_stealing_home_view_has_one_deadline_the_round_clock_or_the_tie_window() -> None:
    game = get_game("stealing-home")
    state = game.start(deck_for("stealing-home"), [0, 1], {"hints": True}, 1)
    assert game.view(state, 0)["deadline"] is None
    state, _ = apply_tick(game, state, START)
    view = game.view(state, 0)
    assert view["deadline"] == view["deadlines"]["round"] == START + 60.0
    (template,) = [t for t in view["legal"] if t["type"] == "match"]
    claim = {"type": "match", **template["fits"][0]}
    state, _ = apply(game, state, 0, claim, START + 1.0)
    view = game.view(state, 1)
    assert view["deadline"] == view["deadlines"]["tie"] == pytest.approx(START + 1.15)


def test_a_four_corners_view_deadline_is_the_stall_clock() -> None:
    game = get_game("four-corners")
    state = game.start(deck_for("four-corners"), [0, 1], {}, 1)
    assert game.view(state, None)["deadline"] is None
    state, _ = apply_tick(game, state, START)
    assert game.view(state, None)["deadline"] == START + 120.0


@pytest.mark.parametrize("game_id", ["gridiron", "scramble"])
def test_games_without_timers_show_no_deadline(game_id: str) -> None:
    game = get_game(game_id)
    state = game.start(deck_for(game_id), [0, 1], {}, 1)
    assert game.view(state, 0)["deadline"] is None


# --- seats ------------------------------------------------------------------------


def test_stealing_home_seats_nobody_past_its_player_limit_mid_game() -> None:
    game = get_game("stealing-home")
    full = list(range(game.max_players))
    state = game.start(deck_for("stealing-home"), full, {}, 1)
    newcomer = {"type": "seat_joined", "seat": game.max_players}
    with pytest.raises(IllegalMove) as refused:
        apply(game, state, SYSTEM_SEAT, newcomer, START)
    assert refused.value.code == "table_full"
    state, _ = apply(game, state, SYSTEM_SEAT, {"type": "seat_left", "seat": 3}, START)
    state, _ = apply(game, state, SYSTEM_SEAT, newcomer, START)
    assert len(state.present()) == game.max_players
