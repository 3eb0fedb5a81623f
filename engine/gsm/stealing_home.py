"""Stealing Home: race to spot where one of two turned cards fits the grid.

Claims are ordered by the order ``decide`` sees them (the host's arrival
order). A valid claim is not settled at once: valid claims arriving within
the tie window of the first one tie with it, so the first is held pending and
settled by ``tick`` when the window has passed (``deadline`` says when).
``decide`` runs any overdue timers itself first, so a late command can never
sneak in front of a settlement that was already due.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partyhost.engine.core import Command, Event, IllegalMove, RuleOption, View
from partyhost.engine.gsm import bots
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.common import (
    HINTS,
    ROTATE,
    GsmGame,
    Placement,
    fits,
    place_template,
    placement_clash,
    placement_event_data,
    read_placement,
)
from partyhost.engine.gsm.seating import score_rows
from partyhost.engine.gsm.stealing_home_state import (
    BLOCK,
    StealingHomeState,
    evolve,
    start_block,
)
from partyhost.engine.gsm.views import board_view, cards_view
from partyhost.engine.rng import Rng


class StealingHome(GsmGame):
    id = "stealing-home"
    name = "Game, Set, Match! - Stealing Home"
    min_players = 2
    max_players = 8
    joins_mid_game = True
    options = (
        ROTATE,
        HINTS,
        RuleOption(
            "tie_window_ms",
            "Tie window (ms)",
            "int",
            150,
            help="Valid claims this close to the first one tie and go to a tiebreaker.",
            minimum=0,
            maximum=2000,
        ),
        RuleOption(
            "round_seconds",
            "Round timer (s)",
            "int",
            60,
            help="A round nobody matches ends as 'no fit' after this long.",
            minimum=5,
            maximum=600,
            allow_none=True,
        ),
    )

    # ----------------------------------------------------------------- setup
    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> StealingHomeState:
        rules, rng = self.start(deck, seats, rules, seed)
        pile = rng.shuffled(range(len(deck.cards)))
        pool: list[int] = []
        block = None
        while pile and block is None:
            pool.append(pile.pop(0))
            if len(pool) >= len(BLOCK):
                block = start_block(deck.table, pool, bool(rules["rotate"]))
        if block is None or len(pile) + len(pool) - len(BLOCK) < 2:
            raise IllegalMove("deck_unplayable", "No four cards of this deck form a valid block.")
        table = deck.table
        board = tuple(
            Placement(table.card_of(o), x, y, table.is_turned(o)) for (x, y), o in block.items()
        )
        used = {p.card for p in board}
        pile += [card for card in pool if card not in used]
        return StealingHomeState(
            deck=deck,
            rules=rules,
            rng=rng.state,
            seats=tuple(seats),
            pile=tuple(pile[2:]),
            board=board,
            face_up=tuple(pile[:2]),
            collected={seat: () for seat in seats},
        )

    # ---------------------------------------------------------------- timers
    def deadline(self, state: StealingHomeState) -> float | None:
        if state.phase != "round":
            return None
        if state.round_started is None:
            return 0.0
        if state.first is not None:
            return state.tie_deadline()
        return state.round_deadline()

    def tick(self, state: StealingHomeState, now: float) -> list[Event]:
        events: list[Event] = []
        for _ in range(8):
            due = self._tick_once(state, now)
            if not due:
                break
            events += due
            state = self._run(state, due)
        return events

    def _tick_once(self, state: StealingHomeState, now: float) -> list[Event]:
        if state.phase != "round":
            return []
        if state.round_started is None:
            return [Event("round_clock", {"at": now})]
        due = self.deadline(state)
        if due is None or now < due:
            return []
        if state.first is not None:
            return self._settle(state, now)
        return self._no_fit(state, now, "timer")

    def _run(self, state: StealingHomeState, events: Sequence[Event]) -> StealingHomeState:
        for event in events:
            state = self.evolve(state, event)
        return state

    # --------------------------------------------------------------- deciding
    def play(
        self, state: StealingHomeState, seat: int, command: Command, now: float
    ) -> list[Event]:
        kind = command.get("type")
        if kind == "match":
            return self._match(state, seat, command, now)
        if kind == "no_fit":
            return self._vote(state, seat, now)
        raise IllegalMove("unknown_command", f"{self.name} has no command {kind!r}.")

    def _check_claimant(self, state: StealingHomeState, seat: int) -> None:
        if state.phase != "round":
            raise IllegalMove("not_now", "The game is over.")
        if seat not in state.seats or seat in state.left:
            raise IllegalMove("not_playing", "You are not playing at this table.")
        if state.tiebreak is not None and seat not in state.tiebreak:
            raise IllegalMove("not_in_tiebreak", "Only the tied players race in a tiebreaker.")
        if seat in state.locked:
            raise IllegalMove("locked_out", "You called a wrong match; wait for the next round.")
        if state.first is not None and seat in (state.first.seat, *state.tied):
            raise IllegalMove("already_called", "You already called a match this round.")

    def _match(
        self, state: StealingHomeState, seat: int, command: Command, now: float
    ) -> list[Event]:
        self._check_claimant(state, seat)
        move = read_placement(command, bool(state.rules["rotate"]))
        if move.card not in state.face_up:
            raise IllegalMove("not_face_up", "Name one of the two face-up cards.")
        reason = placement_clash(state.deck, state.board, move)
        if reason is not None:
            wrong = Event("wrong_match", {**placement_event_data(move, seat), "reason": reason})
            return [wrong, *self._maybe_no_fit(self.evolve(state, wrong), now)]
        secret = {**placement_event_data(move, seat), "at": now}
        return [
            Event("match_called", {"seat": seat, "tie": state.first is not None}, secret=secret)
        ]

    def _vote(self, state: StealingHomeState, seat: int, now: float) -> list[Event]:
        self._check_claimant(state, seat)
        if state.first is not None:
            raise IllegalMove("match_pending", "A match has been called; it is being checked.")
        if seat in state.votes:
            raise IllegalMove("already_voted", "You already said 'no fit' this round.")
        vote = Event("no_fit_vote", {"seat": seat})
        return [vote, *self._maybe_no_fit(self.evolve(state, vote), now)]

    def _maybe_no_fit(self, state: StealingHomeState, now: float) -> list[Event]:
        """No fit once every player who may still claim has said so (someone must have acted)."""
        if state.phase != "round" or state.first is not None or not state.face_up:
            return []
        racing = set(state.present() if state.tiebreak is None else state.tiebreak) - state.left
        if not racing:
            return self._no_fit(state, now, "tied_players_left")
        required = racing - state.locked - state.away
        acted = (state.votes | state.locked) & racing
        if acted and required <= state.votes:
            return self._no_fit(state, now, "votes")
        return []

    def _no_fit(self, state: StealingHomeState, now: float, reason: str) -> list[Event]:
        example = fits(state.deck, state.board, state.face_up, bool(state.rules["rotate"]))
        event = Event(
            "no_fit",
            {
                "cards": list(state.face_up),
                "reason": reason,
                "fit_existed": bool(example),
                "fit": example[0] if example else None,
            },
        )
        return [event, *self._next_round(self.evolve(state, event), now, None)]

    def _settle(self, state: StealingHomeState, now: float) -> list[Event]:
        assert state.first is not None
        move, seat = state.first.move, state.first.seat
        # A tie inside a tiebreaker goes to the first claim: another tiebreaker
        # could repeat forever between players who are equally quick.
        if state.tied and state.tiebreak is None:
            seats = (seat, *state.tied)
            tie = Event("tiebreak", {"seats": list(seats), "cards": list(state.face_up)})
            return [tie, *self._next_round(self.evolve(state, tie), now, seats)]
        kept = next(card for card in state.face_up if card != move.card)
        won = Event("match_won", {**placement_event_data(move, seat), "kept": kept})
        return [won, *self._next_round(self.evolve(state, won), now, None)]

    def _next_round(
        self, state: StealingHomeState, now: float, tiebreak: tuple[int, ...] | None
    ) -> list[Event]:
        if len(state.pile) >= 2:
            data = {
                "cards": list(state.pile[:2]),
                "round": state.round + 1,
                "tiebreak": None if tiebreak is None else list(tiebreak),
                "at": now,
            }
            return [Event("cards_turned", data)]
        return [self._game_over(state)]

    def _game_over(self, state: StealingHomeState) -> Event:
        present = state.present()
        best = max((len(state.collected[s]) for s in present), default=0)
        winners = [s for s in present if len(state.collected[s]) == best]
        scores = [{"seat": s, "cards": len(state.collected[s])} for s in state.seats]
        return Event("game_over", {"winners": winners, "scores": scores})

    def seat_change(
        self, state: StealingHomeState, kind: str, target: int, now: float
    ) -> list[Event]:
        if state.phase == "over":
            return []
        event = Event(kind, {"seat": target})
        after = self.evolve(state, event)
        if kind == "seat_left" and len(after.present()) < 2:
            return [event, self._game_over(after)]
        return [event, *self._maybe_no_fit(after, now)]

    def evolve(self, state: StealingHomeState, event: Event) -> StealingHomeState:
        return evolve(state, event)

    # ------------------------------------------------------------ what to see
    def legal(self, state: StealingHomeState, seat: int) -> list[Command]:
        if not state.may_claim(seat) or not state.face_up:
            return []
        if state.first is not None and seat in (state.first.seat, *state.tied):
            return []
        legal = [self._match_template(state)]
        if state.first is None and seat not in state.votes:
            legal.append({"type": "no_fit"})
        return legal

    @staticmethod
    def _match_template(state: StealingHomeState) -> Command:
        """Every claimant's "match" template is alike (with hints, costly): built once per state."""
        shared = state.shared_views
        template: Command | None = shared.get("match")
        if template is None:
            template = shared["match"] = place_template(
                state.deck, state.board, state.face_up, state.rules, "match"
            )
        return template

    def public_view(self, state: StealingHomeState) -> View:
        deck = state.deck
        collected, locked, votes = state.collected, state.locked, state.votes
        return {
            "board": board_view(deck, state.board),
            "face_up": cards_view(deck, state.face_up),
            "pile": len(state.pile),
            "out_of_play": len(state.out_of_play),
            "round": state.round,
            "tiebreak": None if state.tiebreak is None else list(state.tiebreak),
            "called": [] if state.first is None else [state.first.seat, *state.tied],
            "scores": score_rows(
                state,
                lambda s: {"cards": len(collected[s]), "locked": s in locked, "voted": s in votes},
            ),
            "deadlines": {"round": state.round_deadline(), "tie": state.tie_deadline()},
            "last": state.last,
        }

    def seat_view(self, state: StealingHomeState, seat: int) -> View:
        return {"legal": self.legal(state, seat)}

    def replay_round(self, state: StealingHomeState) -> int:
        return state.round

    def points(self, state: StealingHomeState, seat: int) -> int | None:
        """Cards collected."""
        return len(state.collected[seat])

    def card_locations(self, state: StealingHomeState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        found = [(c, f"collected {s}") for s, cards in state.collected.items() for c in cards]
        found += [(p.card, "board") for p in state.board] + [(c, "pile") for c in state.pile]
        found += [(c, "face up") for c in state.face_up]
        return found + [(c, "out of play") for c in state.out_of_play]

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bots.stealing_home(view, rng)
