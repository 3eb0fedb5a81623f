"""What Do You Meme? as the rulebook and docs/rules.md play it: one test per rule."""

from __future__ import annotations

from dataclasses import replace

import pytest
from memeplay import (
    AWKWARD,
    FUMING,
    GAME,
    NOPE,
    SHOOK,
    WHEEZE,
    bet,
    event,
    new_game,
    others,
    payout_of,
    picks,
    play,
    refused,
    roll_off,
    started,
)
from partyhost.engine.core import IllegalMove
from partyhost.engine.meme.state import TOKENS, MemeState, Phase

# --- setup and the roll-off ------------------------------------------------


def test_game_is_registered_for_two_to_six_players_with_meme_decks() -> None:
    assert (GAME.id, GAME.deck_game, GAME.default_deck) == ("meme", "meme", "what-do-you-meme")
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.joins_mid_game is False
    names = [option["name"] for option in GAME.describe()["options"]]
    assert names == [
        "custom_scenarios",
        "picking_timer",
        "betting_timer",
        "away_wait",
        "round_results",
        "friends_take_bots",
    ]
    with pytest.raises(IllegalMove):
        new_game(7)
    with pytest.raises(IllegalMove):
        new_game(1)


def test_each_seat_gets_its_own_color_and_starts_with_no_money() -> None:
    state = new_game(6)
    view = GAME.view(state, 0)
    colors = [player["color"] for player in view["players"]]
    assert colors == ["blue", "green", "orange", "purple", "red", "yellow"]
    assert all(player["money"] == 0 and player["tokens"] == TOKENS for player in view["players"])
    assert len(view["memes"]) == 7


def test_everyone_rolls_and_the_highest_roll_goes_first() -> None:
    state = new_game(4, seed=5)
    assert GAME.legal(state, 2) == [{"type": "roll", "turn": 0}]
    state, events = roll_off(state)
    rolls = [e.data for e in events if e.kind == "rolloff_roll"]
    first = event(events, "first_player").data["seat"]
    last_attempt = [r for r in rolls if r["attempt"] == rolls[-1]["attempt"]]
    best = max(r["value"] for r in last_attempt)
    assert [r["seat"] for r in last_attempt if r["value"] == best] == [first]
    assert state.reactor == first and state.turn == 1 and state.round == 1


def test_tied_highest_rolls_reroll_until_one_wins() -> None:
    for seed in range(200):
        state, events = roll_off(new_game(5, seed=seed))
        if len(state.rolloff) > 1:
            break
    else:
        pytest.fail("no tie in 200 seeds")
    tie = event(events, "rolloff_tie").data
    first_attempt = [e.data for e in events if e.kind == "rolloff_roll" and e.data["attempt"] == 1]
    top = max(r["value"] for r in first_attempt)
    assert sorted(tie["seats"]) == sorted(r["seat"] for r in first_attempt if r["value"] == top)
    second = [e.data["seat"] for e in events if e.kind == "rolloff_roll" and e.data["attempt"] == 2]
    assert sorted(second) == sorted(tie["seats"])
    attempts = GAME.view(state, None)["rolloff"]["attempts"]
    assert [len(attempt) for attempt in attempts][:2] == [5, len(tie["seats"])]


def test_only_tied_seats_reroll() -> None:
    for seed in range(200):
        state = new_game(5, seed=seed)
        for seat in range(5):
            state, _ = play(state, seat, {"type": "roll"})
        if state.phase is Phase.ROLLOFF:
            break
    outsider = next(seat for seat in range(5) if seat not in state.rolloff_pending)
    refused("not_in_rolloff", state, outsider, {"type": "roll"})


def test_a_seat_rolls_once_per_attempt() -> None:
    state, _ = play(new_game(3), 0, {"type": "roll"})
    refused("already_rolled", state, 0, {"type": "roll"})


# --- a turn ------------------------------------------------------------------


def test_reactor_rolls_tens_then_units_for_the_scenario() -> None:
    state = started(3)
    refused("not_reactor", state, others(state)[0], {"type": "roll"})
    state, events = play(state, state.reactor or 0, {"type": "roll"})
    rolled = event(events, "scenario_rolled").data
    assert rolled["number"] == rolled["tens"] * 10 + rolled["units"]
    assert rolled["text"] == state.deck.scenarios[rolled["number"]]
    view = GAME.view(state, None)
    assert view["dice"] == {"tens": rolled["tens"], "units": rolled["units"]}
    assert view["scenario"] == {"number": rolled["number"], "text": rolled["text"], "custom": False}
    assert view["phase"] == "picking"


def test_own_scenarios_are_off_by_default() -> None:
    state = started(3)
    refused("custom_scenarios_off", state, state.reactor or 0, {"type": "write_scenario"})


def test_own_scenario_is_stored_as_typed_up_to_280_characters() -> None:
    state = started(3, custom_scenarios=True)
    reactor = state.reactor or 0
    assert {c["type"] for c in GAME.legal(state, reactor)} == {"roll", "write_scenario"}
    refused("scenario_too_long", state, reactor, {"type": "write_scenario", "text": "x" * 281})
    refused("scenario_empty", state, reactor, {"type": "write_scenario", "text": "   "})
    for bad in ("\x1b[31mred", "two\nlines", "bell\x07"):
        refused(
            "scenario_control_characters", state, reactor, {"type": "write_scenario", "text": bad}
        )
    text = "[red]When your cat *judges* you[/red] <b>"
    state, events = play(state, reactor, {"type": "write_scenario", "text": text})
    assert event(events, "scenario_written").data["text"] == text
    assert GAME.view(state, 1)["scenario"] == {"number": None, "text": text, "custom": True}
    state, _ = play(
        replace(state, phase=Phase.SCENARIO, scenario=None),
        reactor,
        {"type": "write_scenario", "text": "y" * 280},
    )
    assert state.scenario is not None and len(state.scenario.text) == 280


def test_reactor_picks_one_meme_and_the_others_guess_face_down() -> None:
    state = started(3)
    reactor, guesser, third = state.reactor or 0, *others(state)
    state, _ = play(state, reactor, {"type": "roll"})
    refused("reactor_cannot_guess", state, reactor, {"type": "guess", "meme": 1})
    refused("not_reactor", state, guesser, {"type": "react", "meme": 1})
    refused("bad_meme", state, reactor, {"type": "react", "meme": 7})
    refused("bad_meme", state, reactor, {"type": "react", "meme": True})
    state, _ = play(state, reactor, {"type": "react", "meme": SHOOK})
    refused("already_picked", state, reactor, {"type": "react", "meme": 2})
    state, _ = play(state, guesser, {"type": "guess", "meme": SHOOK})
    assert state.phase is Phase.PICKING
    state, _ = play(state, third, {"type": "guess", "meme": NOPE})
    assert state.phase is Phase.BETTING_1
    table = GAME.view(state, guesser)["table"]
    assert table["reaction"] == {"seat": reactor, "state": "face_down", "meme": None}
    assert {g["seat"]: (g["state"], g["meme"]) for g in table["guesses"]} == {
        guesser: ("face_down", SHOOK),
        third: ("face_down", None),
    }
    assert GAME.view(state, reactor)["table"]["reaction"]["meme"] == SHOOK


def test_rulebook_example_two_tokens_on_the_right_meme_and_one_on_another_pay_two_dollars() -> None:
    state = started(4, seed=2)
    reactor = state.reactor or 0
    right, laugher, player = others(state)
    state = picks(state, FUMING, {right: FUMING, laugher: WHEEZE, player: AWKWARD})
    state, _ = bet(state, reactor, {right: 1})
    assert state.phase is Phase.BETTING_2
    state, _ = bet(state, right, {})
    state, _ = bet(state, laugher, {})
    before = state.money[player]
    state, events = bet(state, player, {right: 2, laugher: 1})
    assert payout_of(events, player) == {"seat": player, "won": 2, "lost": 0, "net": 2}
    assert state.money[player] == before + 2
    assert payout_of(events, reactor)["won"] == 1
    assert event(events, "reaction_revealed").data["correct"] == [right]
    (turn,) = GAME.view(state, None)["history"]  # the calls that paid, for the recap
    paid = sorted((entry["seat"], entry["net"]) for entry in turn["paid"])
    assert paid == sorted([(reactor, 1), (player, 2)])


def test_tokens_on_wrong_guesses_cost_nothing() -> None:
    state = started(3)
    reactor, a, b = state.reactor or 0, *others(state)
    state = picks(state, NOPE, {a: WHEEZE, b: SHOOK})
    state, _ = bet(state, reactor, {a: 3})
    state, _ = bet(state, a, {a: 2, b: 1})
    state, events = bet(state, b, {b: 2})
    assert all(p["won"] == 0 and p["lost"] == 0 for p in event(events, "turn_over").data["payouts"])
    assert set(state.money.values()) == {0}


# --- betting limits, rounds 1-3 ----------------------------------------------


def _betting_1(players: int = 4) -> tuple[MemeState, int, list[int]]:
    state = started(players, seed=4)
    guessers = others(state)
    state = picks(state, NOPE, {seat: NOPE for seat in guessers})
    return state, state.reactor or 0, guessers


def test_reactor_must_place_at_least_one_token() -> None:
    state, reactor, guessers = _betting_1()
    refused("bet_too_few", state, reactor, {"type": "bet", "bets": []})
    refused(
        "bet_too_few", state, reactor, {"type": "bet", "bets": [{"seat": guessers[0], "amount": 0}]}
    )


def test_reactor_places_at_most_three_tokens() -> None:
    state, reactor, (a, b, c) = _betting_1()
    refused("bet_too_many", state, reactor, {"type": "bet", "bets": [{"seat": a, "amount": 4}]})
    error = refused(
        "bet_too_many",
        state,
        reactor,
        {"type": "bet", "bets": [{"seat": a, "amount": 2}, {"seat": b, "amount": 2}]},
    )
    assert "3 tokens" in error.message
    state, _ = bet(state, reactor, {a: 1, b: 1, c: 1})
    assert state.reactor_bets == {a: 1, b: 1, c: 1}


def test_reactor_bets_only_on_the_others_unrevealed_guesses() -> None:
    state, reactor, guessers = _betting_1()
    error = refused(
        "bet_target", state, reactor, {"type": "bet", "bets": [{"seat": reactor, "amount": 1}]}
    )
    assert "own" in error.message
    refused("bet_target", state, reactor, {"type": "bet", "bets": [{"seat": 9, "amount": 1}]})
    view = GAME.view(state, reactor)
    (template,) = view["legal"]
    assert template["stage"] == 1 and template["min_total"] == 1 and template["max_total"] == 3
    assert [t["seat"] for t in template["targets"]] == guessers
    assert all(g["state"] == "face_down" for g in view["table"]["guesses"])


def test_reactor_cannot_bet_again_once_guesses_are_revealed() -> None:
    state, reactor, (a, _b, _c) = _betting_1()
    state, events = bet(state, reactor, {a: 3})
    assert event(events, "guesses_revealed")
    refused("not_betting", state, reactor, {"type": "bet", "bets": [{"seat": a, "amount": 1}]})


def test_others_cannot_bet_before_the_reactor() -> None:
    state, _reactor, (a, _b, _c) = _betting_1()
    refused("not_betting", state, a, {"type": "bet", "bets": []})


def test_others_bet_zero_to_three_tokens_at_most_two_on_their_own_guess() -> None:
    state, reactor, (a, b, c) = _betting_1()
    state, _ = bet(state, reactor, {b: 1})
    cmd = {"type": "bet", "bets": [{"seat": b, "amount": 2}, {"seat": c, "amount": 2}]}
    refused("bet_too_many", state, a, cmd)
    refused("bet_own_limit", state, a, {"type": "bet", "bets": [{"seat": a, "amount": 3}]})
    (template,) = GAME.legal(state, a)
    assert template["max_own"] == 2 and template["min_total"] == 0 and template["max_total"] == 3
    assert {t["seat"]: t["max"] for t in template["targets"]} == {a: 2, b: 3, c: 3}
    state, _ = bet(state, a, {a: 2, b: 1})
    state, _ = bet(state, b, {})
    refused("not_betting", state, b, {"type": "bet", "bets": []})


def test_bets_must_be_well_formed() -> None:
    state, reactor, (a, _b, _c) = _betting_1()
    for bad in (
        "lots",
        [{"seat": a}],
        [{"seat": a, "amount": 1.5}],
        [{"seat": True, "amount": 1}],
        [3],
    ):
        refused("bad_bets", state, reactor, {"type": "bet", "bets": bad})
    refused("bet_negative", state, reactor, {"type": "bet", "bets": [{"seat": a, "amount": -1}]})
    cmd = {"type": "bet", "bets": [{"seat": a, "amount": 1}, {"seat": a, "amount": 1}]}
    refused("bet_duplicate", state, reactor, cmd)


def test_second_round_bets_stay_sealed_until_everyone_has_bet() -> None:
    state, reactor, (a, b, c) = _betting_1()
    state, _ = bet(state, reactor, {a: 1})
    state, events = bet(state, a, {b: 3})
    committed = event(events, "bet_committed")
    assert committed.for_seat(b) == {"kind": "bet_committed", "seat": a, "auto": None}
    assert committed.for_seat(a) == {
        "kind": "bet_committed",
        "seat": a,
        "auto": None,
        "bets": [{"seat": b, "amount": 3}],
    }
    assert GAME.view(state, b)["table"]["bets"] == [{"seat": a, "sealed": True, "bets": None}]
    state, _ = bet(state, b, {})
    state, events = bet(state, c, {c: 1})
    revealed = event(events, "bets_revealed").data["bets"]
    assert {"seat": a, "bets": [{"seat": b, "amount": 3}]} in revealed


def test_a_move_for_an_earlier_turn_is_stale() -> None:
    state = started(3)
    refused("stale", state, state.reactor or 0, {"type": "roll", "turn": 0})
    state, _ = play(state, state.reactor or 0, {"type": "roll", "turn": 1})


def test_unknown_commands_and_spectators_arerefused() -> None:
    state = started(3)
    refused("unknown_command", state, 0, {"type": "dance"})
    refused("not_playing", state, 5, {"type": "roll"})
