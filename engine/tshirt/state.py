"""The T-Shirt Game's state (frozen, tuples only; a pile's first item is its top card).

Every event carries the facts it needs (dealt cards in ``private``, shuffles
and the generator in ``secret``), so :func:`evolve` decides nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from partyhost.engine.core import Event, IllegalMove, SharedViews
from partyhost.engine.rng import Rng
from partyhost.engine.tshirt.deck import TShirtDeck

MIN_ACTIVE = 3
MAX_SEATS = 10


class Phase(StrEnum):
    """Where the table is in a round; ``STARTING`` waits for the opening tick."""

    STARTING = "starting"
    SUBMITTING = "submitting"
    JUDGING = "judging"
    BOOYAH = "booyah"
    PAUSED = "paused"
    OVER = "over"


class Presence(enum.Enum):
    """Whether a seat is at the table, briefly gone, or gone for good."""

    ACTIVE = "active"
    AWAY = "away"
    LEFT = "left"


@dataclass(frozen=True)
class Player:
    """One seat: its presence, its hand of slogans and the Hot or Not cards it won."""

    seat: int
    presence: Presence = Presence.ACTIVE
    hand: tuple[int, ...] = ()
    won: tuple[int, ...] = ()


@dataclass(frozen=True)
class Submission:
    """A slogan lying on the table and (secretly until the pick) whose it is; also a drawn
    Booyah card waiting for its drawer to keep it or steal with it."""

    seat: int
    card: int


@dataclass(frozen=True)
class RoundResult:
    """What happened in the last finished (or void) round, shown to everyone."""

    round: int
    tshirt: int | None
    void_reason: str | None = None
    submissions: tuple[Submission, ...] = ()
    winning_index: int | None = None
    random_pick: bool = False
    sat_out: tuple[int, ...] = ()
    hot_card: int | None = None
    booyah_choice: str | None = None
    """``keep``, ``steal`` or ``returned`` when the drawn card was a Booyah card."""
    victim: int | None = None
    stolen_card: int | None = None


@dataclass(frozen=True)
class TShirtState(SharedViews):
    """A whole game. ``evolve`` is the only thing that makes a new one."""

    deck: TShirtDeck
    rules: Mapping[str, Any]
    """The room's options, resolved (see ``OPTIONS`` in :mod:`.game`)."""
    players: tuple[Player, ...]
    slogan_pile: tuple[int, ...]
    tshirt_pile: tuple[int, ...]
    hot_pile: tuple[int, ...]
    rng: int
    slogan_discard: tuple[int, ...] = ()
    tshirt_discard: tuple[int, ...] = ()
    phase: Phase = Phase.STARTING
    round: int = 0
    judge: int | None = None
    tshirt: int | None = None
    submissions: tuple[Submission, ...] = ()
    """In submission order while face down, in shuffled order once revealed."""
    sat_out: tuple[int, ...] = ()
    booyah: Submission | None = None
    rounds: tuple[RoundResult, ...] = ()
    """Every finished (or void) round, oldest first: the last one is shown, all in the recap."""
    deadline: float | None = 0.0
    """When ``tick`` acts next; 0.0 at setup so the host deals right away."""
    winners: tuple[int, ...] = ()
    end_reason: str | None = None
    version: int = 0


def player_of(state: TShirtState, seat: int | None) -> Player | None:
    """The seat's player, or None for spectators and unknown seats."""
    for player in state.players:  # a plain loop: this runs many times per command
        if player.seat == seat:
            return player
    return None


def seated(state: TShirtState, seat: int | None) -> Player | None:
    """The seat's player while it is in the game (active or away); None once it left."""
    player = player_of(state, seat)
    return None if player is None or player.presence is Presence.LEFT else player


def present_players(state: TShirtState) -> Iterator[Player]:
    """Seats still in the game (active or away), in seat order."""
    return (player for player in state.players if player.presence is not Presence.LEFT)


def active_seats(state: TShirtState) -> list[int]:
    return [player.seat for player in state.players if player.presence is Presence.ACTIVE]


def has_presence(state: TShirtState, seat: int | None, presence: Presence) -> bool:
    player = player_of(state, seat)
    return player is not None and player.presence is presence


def score(state: TShirtState, player: Player) -> int:
    cards = state.deck.hot_or_not
    return sum([cards[card].points for card in player.won])


def seats_from(state: TShirtState, seat: int | None, *, inclusive: bool) -> list[int]:
    """Every seat in clockwise (seat) order starting at or after ``seat``."""
    seats = [player.seat for player in state.players]
    start = seats.index(seat) if seat in seats else 0
    ordered = seats[start:] + seats[:start]
    return ordered if inclusive else ordered[1:] + ordered[:1]


def submitted_seats(state: TShirtState) -> list[int]:
    """Who has a slogan on the table, sorted so the order reveals nothing."""
    return sorted(submission.seat for submission in state.submissions)


def waiting_for(state: TShirtState) -> list[int]:
    """Active non-judges with a slogan in hand who have not submitted yet."""
    if state.phase is not Phase.SUBMITTING:
        return []
    done = set(submitted_seats(state))
    return [
        player.seat
        for player in state.players
        if player.presence is Presence.ACTIVE
        and player.seat != state.judge
        and player.seat not in done
        and player.hand
    ]


def submission_of(state: TShirtState, seat: int) -> Submission | None:
    return next((sub for sub in state.submissions if sub.seat == seat), None)


def victims_for(state: TShirtState, thief: int) -> list[int]:
    """Seats a Booyah drawer may steal from: still in the game, owning a card."""
    return [player.seat for player in present_players(state) if player.seat != thief and player.won]


def can_play_round(state: TShirtState) -> bool:
    """Enough active seats, and a slogan somewhere the active seats can get to."""
    if len(active_seats(state)) < MIN_ACTIVE:
        return False
    held = sum(len(p.hand) for p in state.players if p.presence is Presence.ACTIVE)
    return held + len(state.slogan_pile) + len(state.slogan_discard) > 0


def hot_card_shown(state: TShirtState, card: int) -> dict[str, Any]:
    """A face-up Hot or Not card as views and events show it."""
    return {"card": card, **asdict(state.deck.hot_or_not[card])}


def tshirt_shown(state: TShirtState, card: int | None) -> dict[str, Any] | None:
    """A turned T-shirt as views and events show it."""
    return None if card is None else {"card": card, **asdict(state.deck.tshirts[card])}


def authors_shown(state: TShirtState, played: tuple[Submission, ...]) -> list[dict[str, Any]]:
    """Slogans on the table with whose each is, once the judge has picked."""
    slogans = state.deck.slogans
    return [
        {"index": i, "seat": sub.seat, "text": slogans[sub.card]} for i, sub in enumerate(played)
    ]


def card_locations(state: TShirtState) -> list[tuple[tuple[str, int], str]]:
    """One ``((deck, card), place)`` pair per card; each card must appear exactly once."""
    places: list[tuple[tuple[str, int], str]] = []

    def put(kind: str, cards: tuple[int, ...], place: str) -> None:
        places.extend(((kind, card), place) for card in cards)

    put("slogan", state.slogan_pile, "slogan pile")
    put("slogan", state.slogan_discard, "slogan discard")
    put("slogan", tuple(sub.card for sub in state.submissions), "on the table")
    put("tshirt", state.tshirt_pile, "T-shirt pile")
    put("tshirt", state.tshirt_discard, "T-shirt discard")
    put("tshirt", () if state.tshirt is None else (state.tshirt,), "on the table")
    put("hot", state.hot_pile, "Hot or Not pile")
    put("hot", () if state.booyah is None else (state.booyah.card,), "Booyah choice")
    for player in state.players:
        put("slogan", player.hand, f"hand of seat {player.seat}")
        put("hot", player.won, f"won by seat {player.seat}")
    return places


def setup(
    deck: TShirtDeck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
) -> TShirtState:
    """Shuffle the three decks; ``rules`` are resolved and ``seats`` checked already."""
    first_judge = rules["first_judge"]
    if first_judge is not None and first_judge not in seats:
        raise IllegalMove("bad_option", f"Seat {first_judge} is not at the table to judge first.")
    rng = Rng(seed)
    slogans = rng.shuffled(range(len(deck.slogans)))
    tshirts = rng.shuffled(range(len(deck.tshirts)))
    hot = rng.shuffled(range(len(deck.hot_or_not)))
    return TShirtState(
        deck=deck,
        rules=dict(rules),
        players=tuple(Player(seat) for seat in seats),
        slogan_pile=tuple(slogans),
        tshirt_pile=tuple(tshirts),
        hot_pile=tuple(hot),
        rng=rng.state,
    )


def _update(state: TShirtState, seat: int, **changes: Any) -> TShirtState:
    """Replace fields of one seat's player."""
    players = tuple(replace(p, **changes) if p.seat == seat else p for p in state.players)
    return replace(state, players=players)


def _player(state: TShirtState, seat: int) -> Player:
    player = player_of(state, seat)
    if player is None:
        raise ValueError(f"event names seat {seat}, which is not in the game")
    return player


def _with_result(state: TShirtState, **changes: Any) -> TShirtState:
    """The last round's result changed (a card drawn, a Booyah choice)."""
    return replace(state, rounds=(*state.rounds[:-1], replace(state.rounds[-1], **changes)))


def evolve(state: TShirtState, event: Event) -> TShirtState:
    """The state after ``event``; ``first_judge`` and ``resumed`` only announce."""
    if "rng" in event.secret:
        state = replace(state, rng=event.secret["rng"])
    data = event.data
    match event.kind:
        case "round_started":
            return replace(
                state,
                phase=Phase.SUBMITTING,
                round=data["round"],
                judge=data["judge"],
                submissions=(),
                sat_out=(),
                tshirt=None,
                deadline=None,
            )
        case "reshuffled":
            order = tuple(event.secret["order"])
            if data["pile"] == "slogans":
                return replace(state, slogan_pile=order, slogan_discard=())
            return replace(state, tshirt_pile=order, tshirt_discard=())
        case "dealt":
            seat = data["seat"]
            cards = tuple(event.private[seat]["cards"])
            state = _update(state, seat, hand=_player(state, seat).hand + cards)
            return replace(state, slogan_pile=state.slogan_pile[len(cards) :])
        case "tshirt_drawn":
            return replace(state, tshirt=data["card"], tshirt_pile=state.tshirt_pile[1:])
        case "timer_set":
            return replace(state, deadline=data["deadline"])
        case "submitted":
            seat = data["seat"]
            card = event.private[seat]["card"]
            state = _update(
                state, seat, hand=tuple(c for c in _player(state, seat).hand if c != card)
            )
            return replace(state, submissions=(*state.submissions, Submission(seat, card)))
        case "timed_out":
            return replace(state, deadline=None, sat_out=tuple(data.get("sat_out", state.sat_out)))
        case "revealed":
            by_seat = {sub.seat: sub for sub in state.submissions}
            shuffled = tuple(by_seat[seat] for seat in event.secret["order"])
            return replace(state, submissions=shuffled, phase=Phase.JUDGING, deadline=None)
        case "picked":
            result = RoundResult(
                round=state.round,
                tshirt=state.tshirt,
                submissions=state.submissions,
                winning_index=data["index"],
                random_pick=data["random"],
                sat_out=state.sat_out,
            )
            return replace(state, rounds=(*state.rounds, result), deadline=None)
        case "drew":
            seat, card = data["seat"], data["card"]
            state = _with_result(replace(state, hot_pile=state.hot_pile[1:]), hot_card=card)
            if data["booyah"]:
                return replace(state, booyah=Submission(seat, card))
            return _win(state, seat, card)
        case "booyah_pending":
            return replace(state, phase=Phase.BOOYAH)
        case "booyah_kept":
            state = _with_result(_win(state, data["seat"], data["card"]), booyah_choice="keep")
            return replace(state, booyah=None, deadline=None)
        case "stole":
            victim, card = data["victim"], data["card"]
            victim_cards = list(_player(state, victim).won)
            victim_cards.remove(card)
            state = _win(_update(state, victim, won=tuple(victim_cards)), data["thief"], card)
            state = _with_result(state, booyah_choice="steal", victim=victim, stolen_card=card)
            bottom = (*state.hot_pile, data["booyah_card"])
            return replace(state, hot_pile=bottom, booyah=None, deadline=None)
        case "booyah_returned":
            state = _with_result(state, booyah_choice="returned")
            bottom = (*state.hot_pile, data["card"])
            return replace(state, hot_pile=bottom, booyah=None, deadline=None)
        case "round_ended":
            return _round_ended(state)
        case "round_void":  # slogans go back to their owners' hands (if they are still here)
            discard = state.slogan_discard
            for sub in state.submissions:
                owner = _player(state, sub.seat)
                if owner.presence is Presence.LEFT:
                    discard += (sub.card,)
                else:
                    state = _update(state, sub.seat, hand=(*owner.hand, sub.card))
            return _round_ended(
                replace(
                    state,
                    slogan_discard=discard,
                    submissions=(),
                    rounds=(*state.rounds, RoundResult(state.round, state.tshirt, data["reason"])),
                )
            )
        case "paused":
            return replace(state, phase=Phase.PAUSED, judge=data["next_judge"], deadline=None)
        case "game_over":
            return replace(
                state,
                phase=Phase.OVER,
                winners=tuple(data["winners"]),
                end_reason=data["reason"],
                deadline=None,
            )
        case "seat_joined":
            seat = data["seat"]
            if player_of(state, seat) is None:
                return replace(state, players=(*state.players, Player(seat)))
            return _update(state, seat, presence=Presence.ACTIVE)
        case "seat_left":
            seat = data["seat"]
            discard = state.slogan_discard + _player(state, seat).hand
            state = _update(state, seat, presence=Presence.LEFT, hand=())
            return replace(state, slogan_discard=discard)
        case "submission_withdrawn":
            seat = data["seat"]
            withdrawn = tuple(sub.card for sub in state.submissions if sub.seat == seat)
            kept = tuple(sub for sub in state.submissions if sub.seat != seat)
            return replace(state, submissions=kept, slogan_discard=state.slogan_discard + withdrawn)
        case "seat_away":
            return _update(state, data["seat"], presence=Presence.AWAY)
        case "seat_back":
            return _update(state, data["seat"], presence=Presence.ACTIVE)
    return state


def _win(state: TShirtState, seat: int, card: int) -> TShirtState:
    """``seat`` now owns the Hot or Not ``card``."""
    return _update(state, seat, won=(*_player(state, seat).won, card))


def _round_ended(state: TShirtState) -> TShirtState:
    played = tuple(sub.card for sub in state.submissions)
    shirts = state.tshirt_discard + (() if state.tshirt is None else (state.tshirt,))
    return replace(
        state,
        slogan_discard=state.slogan_discard + played,
        tshirt_discard=shirts,
        tshirt=None,
        submissions=(),
        sat_out=(),
        deadline=None,
    )
