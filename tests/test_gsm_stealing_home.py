"""Stealing Home: claims, the tie window, lockouts, no-fit votes, the timer and the end."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from gsm_reference import layout_ok
from gsmplay import play_bots, shipped_deck
from partyhost.engine.core import SYSTEM_SEAT, IllegalMove, apply, apply_tick
from partyhost.engine.gsm.board import frontier
from partyhost.engine.gsm.placement import Placement, fits, placement_clash
from partyhost.engine.gsm.stealing_home.game import GAME
from partyhost.engine.gsm.stealing_home.state import BLOCK, MAX_PLAYERS, StealingHomeState

DECK = shipped_deck()


def start(seats: tuple[int, ...] = (0, 1, 2), **rules: Any) -> StealingHomeState:
    state = GAME.start(DECK, list(seats), rules, seed=5)
    state, events = apply_tick(GAME, state, 0.0)
    assert [e.kind for e in events] == ["round_clock"]
    return with_face_up(state, fit=True)


def with_face_up(state: StealingHomeState, fit: bool) -> StealingHomeState:
    """Swap pile cards in so that the face-up pair has (or has no) fit."""
    cards = [*state.face_up, *state.pile]
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            pair = (cards[i], cards[j])
            if bool(fits(DECK, state.board, pair, True)) == fit:
                pile = tuple(c for c in cards if c not in pair)
                return dataclasses.replace(state, face_up=pair, pile=pile)
    raise AssertionError("no such pair")


def a_fit(state: StealingHomeState) -> dict[str, Any]:
    return fits(DECK, state.board, state.face_up, True)[0]


def a_clash(state: StealingHomeState) -> dict[str, Any]:
    slots = frontier({p.slot: p for p in state.board})
    for card in state.face_up:
        for x, y in slots:
            move = Placement(card, x, y)
            if placement_clash(DECK, state.board, move) is not None:
                return {"card": card, "x": x, "y": y, "turned": False}
    raise AssertionError("everything fits")


def match(
    state: StealingHomeState, seat: int, claim: dict[str, Any], now: float
) -> tuple[StealingHomeState, list[str]]:
    state, events = apply(GAME, state, seat, {"type": "match", **claim}, now)
    return state, [e.kind for e in events]


def test_setup_lays_a_two_by_two_block_that_obeys_the_rule() -> None:
    state = GAME.start(DECK, [0, 1], {}, seed=9)
    assert sorted(p.slot for p in state.board) == sorted(BLOCK)
    cards = {card.id: card.cells for card in DECK.cards}
    assert layout_ok(2, 2, cards, {p.slot: (p.card, p.turned) for p in state.board})
    assert len(state.face_up) == 2
    assert sorted(c for c, _ in GAME.card_locations(state)) == list(range(60))


def test_valid_match_waits_out_the_tie_window_then_the_claimer_keeps_the_other_card() -> None:
    state = start()
    claim = a_fit(state)
    other = next(c for c in state.face_up if c != claim["card"])
    state, kinds = match(state, 1, claim, now=2.0)
    assert kinds == ["match_called"]
    assert len(state.board) == 4  # not placed yet: others may still tie
    assert GAME.deadline(state) == pytest.approx(2.15)
    assert apply_tick(GAME, state, 2.1)[1] == []
    state, events = apply_tick(GAME, state, 2.15)
    assert [e.kind for e in events] == ["match_won", "cards_turned"]
    assert Placement(claim["card"], claim["x"], claim["y"], claim["turned"], 1) in state.board
    assert state.collected[1] == (other,)
    assert state.round == 2 and len(state.face_up) == 2


def test_claims_within_the_tie_window_start_a_tiebreaker_for_the_tied_players_only() -> None:
    state = start()
    old_face_up, old_pile = state.face_up, state.pile
    state, _ = match(state, 0, a_fit(state), now=2.0)
    state, kinds = match(state, 2, fits(DECK, state.board, state.face_up, True)[-1], now=2.14)
    assert kinds == ["match_called"]
    state, events = apply_tick(GAME, state, 2.15)
    assert [e.kind for e in events] == ["tiebreak", "cards_turned"]
    assert state.tiebreak == (0, 2)
    assert state.face_up == old_pile[:2]
    assert state.pile[-2:] == old_face_up  # the face-up cards went to the bottom
    assert len(state.board) == 4 and all(not cards for cards in state.collected.values())
    for command in ({"type": "match", **a_fit(with_face_up(state, True))}, {"type": "no_fit"}):
        with pytest.raises(IllegalMove) as refused:
            apply(GAME, state, 1, command, 2.5)
        assert refused.value.code == "not_in_tiebreak"
    assert GAME.legal(state, 1) == []


def test_a_tie_inside_a_tiebreaker_goes_to_the_first_claim() -> None:
    state = start()
    state, _ = match(state, 0, a_fit(state), now=2.0)
    state, _ = match(state, 2, fits(DECK, state.board, state.face_up, True)[-1], now=2.14)
    state, _ = apply_tick(GAME, state, 2.15)
    assert state.tiebreak == (0, 2)
    first = a_fit(state)
    state, _ = match(state, 2, first, now=3.0)
    state, kinds = match(state, 0, fits(DECK, state.board, state.face_up, True)[-1], now=3.05)
    assert kinds == ["match_called"]
    state, events = apply_tick(GAME, state, 3.15)
    assert events[0].kind == "match_won" and events[0].data["seat"] == 2
    assert state.tiebreak is None and len(state.collected[2]) == 1


def test_a_valid_claim_after_the_tie_window_does_not_tie() -> None:
    state = start()
    claim = a_fit(state)
    state, _ = match(state, 0, claim, now=2.0)
    # seat 1 claims the same card 200 ms later, before the host ticked: the
    # first claim is settled first, so the card is gone and the claim is void
    with pytest.raises(IllegalMove) as refused:
        apply(GAME, state, 1, {"type": "match", **claim}, 2.2)
    assert refused.value.code in ("not_face_up", "occupied")
    state, events = apply_tick(GAME, state, 2.2)
    assert events[0].kind == "match_won" and events[0].data["seat"] == 0


def test_wrong_match_locks_the_player_out_until_the_next_round() -> None:
    state = start()
    state, kinds = match(state, 0, a_clash(state), now=1.0)
    assert kinds == ["wrong_match"]
    assert state.locked == {0}
    for command in ({"type": "match", **a_fit(state)}, {"type": "no_fit"}):
        with pytest.raises(IllegalMove) as refused:
            apply(GAME, state, 0, command, 1.5)
        assert refused.value.code == "locked_out"
    state, _ = match(state, 1, a_fit(state), now=2.0)
    state, _ = apply_tick(GAME, state, 3.0)
    assert state.round == 2 and state.locked == frozenset()
    assert GAME.legal(state, 0)


def test_a_claim_on_a_taken_or_detached_slot_is_refused_without_lockout() -> None:
    state = start()
    card = state.face_up[0]
    for x, y, code in ((0, 0, "occupied"), (5, 5, "not_next_to"), (2, 2, "not_next_to")):
        with pytest.raises(IllegalMove) as refused:
            match(state, 0, {"card": card, "x": x, "y": y, "turned": False}, 1.0)
        assert refused.value.code == code
    with pytest.raises(IllegalMove) as refused:
        match(state, 0, {"card": state.pile[0], "x": 2, "y": 0, "turned": False}, 1.0)
    assert refused.value.code == "not_face_up"
    assert state.locked == frozenset()


def test_no_fit_when_every_player_not_locked_out_has_voted_and_the_host_says_a_fit_existed() -> (
    None
):
    state = start()
    face_up = state.face_up
    state, _ = match(state, 2, a_clash(state), now=1.0)
    state, events = apply(GAME, state, 0, {"type": "no_fit"}, 2.0)
    assert [e.kind for e in events] == ["no_fit_vote"]
    state, events = apply(GAME, state, 1, {"type": "no_fit"}, 3.0)
    assert [e.kind for e in events] == ["no_fit_vote", "no_fit", "cards_turned"]
    assert events[1].data["reason"] == "votes"
    assert events[1].data["fit_existed"] is True and events[1].data["fit"] is not None
    assert state.out_of_play == face_up


def test_no_fit_vote_when_no_card_fits_says_so() -> None:
    state = with_face_up(start((0, 1)), fit=False)
    state, _ = apply(GAME, state, 0, {"type": "no_fit"}, 1.0)
    state, events = apply(GAME, state, 1, {"type": "no_fit"}, 1.0)
    assert events[1].data["fit_existed"] is False and events[1].data["fit"] is None


def test_round_timer_ends_the_round_as_no_fit() -> None:
    state = start()
    assert GAME.deadline(state) == 60.0
    assert apply_tick(GAME, state, 59.9)[1] == []
    state, events = apply_tick(GAME, state, 60.0)
    assert [e.kind for e in events] == ["no_fit", "cards_turned"]
    assert events[0].data["reason"] == "timer"
    assert GAME.deadline(start(round_seconds=None)) is None


def test_players_who_are_away_need_not_vote() -> None:
    state = start()
    state, _ = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_away", "seat": 2}, 1.0)
    state, _ = apply(GAME, state, 0, {"type": "no_fit"}, 1.0)
    state, events = apply(GAME, state, 1, {"type": "no_fit"}, 1.0)
    assert "no_fit" in [e.kind for e in events]


def test_game_ends_when_fewer_than_two_cards_remain_and_ties_share_the_win() -> None:
    state = dataclasses.replace(start(), collected={0: (50,), 1: (51,), 2: ()})
    state = dataclasses.replace(state, pile=state.pile[:1])
    state, _ = match(state, 2, a_fit(state), now=1.0)
    state, events = apply_tick(GAME, state, 2.0)
    assert [e.kind for e in events] == ["match_won", "game_over"]
    assert state.phase == "over" and GAME.is_over(state)
    assert sorted(state.winners) == [0, 1, 2]  # one card each
    assert GAME.legal(state, 0) == [] and GAME.deadline(state) is None


def test_a_new_player_may_join_and_claim() -> None:
    state = start((0, 1))
    state, _ = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_joined", "seat": 7}, 1.0)
    state, kinds = match(state, 7, a_fit(state), now=2.0)
    assert kinds == ["match_called"]


def test_ten_players_play_a_whole_game() -> None:
    """The rulebook says "two or more players": a party of ten sits at one table."""
    assert MAX_PLAYERS >= 10
    seats = list(range(10))
    GAME.check_player_count(len(seats))
    state, log, _ = play_bots(GAME, GAME.start(DECK, seats, {}, seed=11), seed=11)
    assert state.phase == "over" and state.winners
    claimers = {e.data.get("seat") for e in log if e.kind == "match_called"}
    assert len(claimers) >= 5  # the race is open to all ten
    with pytest.raises(IllegalMove):
        GAME.check_player_count(MAX_PLAYERS + 1)


def test_the_game_ends_when_fewer_than_two_players_are_left() -> None:
    state = start((0, 1))
    state, events = apply(GAME, state, SYSTEM_SEAT, {"type": "seat_left", "seat": 0}, 1.0)
    assert [e.kind for e in events] == ["seat_left", "game_over"]
    assert state.winners == (1,)


def test_only_the_host_sends_seat_changes() -> None:
    with pytest.raises(IllegalMove) as refused:
        apply(GAME, start(), 0, {"type": "seat_left", "seat": 1}, 1.0)
    assert refused.value.code == "not_host"


def test_turning_is_refused_when_the_rotate_option_is_off() -> None:
    state = start(rotate=False)
    with pytest.raises(IllegalMove) as refused:
        match(state, 0, {**a_fit(state), "turned": True}, 1.0)
    assert refused.value.code == "no_turning"
    assert GAME.legal(state, 0)[0]["turned"] == [False]


def test_view_shows_the_table_not_the_pile_and_is_plain_data() -> None:
    state = start()
    view = GAME.view(state, 0)
    for key in ("game", "phase", "you", "version", "legal", "legend", "board", "scores"):
        assert key in view
    assert view["pile"] == len(state.pile)
    assert view["legal"][0] == {
        "type": "match",
        "cards": list(state.face_up),
        "turned": [False, True],
    }
    assert view["legend"]["objects"][3] == {"name": "football helmet", "letter": "H", "glyph": "🏈"}
    msgpack.unpackb(msgpack.packb(view), strict_map_key=True)
    shuffled = dataclasses.replace(state, pile=state.pile[::-1])
    assert GAME.view(shuffled, 0) == view and GAME.view(shuffled, None) == GAME.view(state, None)


def test_hints_list_every_legal_claim() -> None:
    state = start(hints=True)
    template = GAME.view(state, 0)["legal"][0]
    assert template["fits"] == fits(DECK, state.board, state.face_up, True)
