"""Betting limits, their checks and the payouts of a turn.

Rounds 1-3 bet tokens that come back, each on a correct guess earning $1; the
final round bets dollars at 1:1. A guess is correct when it is the reactor's meme.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import IllegalMove
from partyhost.engine.meme.state import MAX_OWN_TOKENS, TOKENS, Bets, MemeState, Phase

MAX_BET_ENTRIES = 12


@dataclass(frozen=True)
class BetLimits:
    """What one seat may bet right now; also sent to clients as the betting panel."""

    stage: int
    cash: bool
    min_total: int
    max_total: int
    targets: tuple[int, ...]
    """Seats whose guesses may carry this bet."""
    own_seat: int | None = None
    max_own: int | None = None

    def max_on(self, target: int) -> int:
        if target == self.own_seat and self.max_own is not None:
            return min(self.max_total, self.max_own)
        return self.max_total


def limits_for(state: MemeState, seat: int) -> BetLimits | None:
    """The seat's betting limits, or None when it has no bet to place now."""
    on_table = state.bettors()
    if state.phase is Phase.BETTING_1 and seat == state.reactor and state.reactor_bets is None:
        if state.final:
            held = state.money[seat]
            return BetLimits(1, True, min(1, held), held, on_table, seat)
        return BetLimits(1, False, 1, TOKENS, on_table, seat)
    if state.phase is Phase.BETTING_2 and seat in on_table and seat not in state.bets:
        if state.final:
            return BetLimits(2, True, 0, state.money[seat], on_table, seat)
        return BetLimits(2, False, 0, TOKENS, on_table, seat, MAX_OWN_TOKENS)
    return None


def _amount(limits: BetLimits, total: int) -> str:
    if limits.cash:
        return f"${total}"
    return f"{total} token" + ("" if total == 1 else "s")


def check_bets(state: MemeState, limits: BetLimits, raw: Any) -> dict[int, int]:
    """The command's bets as {target: amount}, or IllegalMove naming the broken limit."""
    if not isinstance(raw, list) or len(raw) > MAX_BET_ENTRIES:
        raise IllegalMove(
            "bad_bets", "Send 'bets' as a list of {seat, amount} entries, one per guess."
        )
    bets: dict[int, int] = {}
    for entry in raw:
        target = entry.get("seat") if isinstance(entry, dict) else None
        amount = entry.get("amount") if isinstance(entry, dict) else None
        if not _whole(target) or not _whole(amount):
            raise IllegalMove(
                "bad_bets", "Each bet needs a whole-number 'seat' and a whole-number 'amount'."
            )
        assert isinstance(target, int) and isinstance(amount, int)
        if amount < 0:
            raise IllegalMove("bet_negative", "A bet cannot be negative.")
        if target in bets:
            raise IllegalMove(
                "bet_duplicate",
                f"You listed the guess of {state.label(target)} twice; list it once.",
            )
        if target not in limits.targets:
            raise IllegalMove("bet_target", _bad_target(state, limits, target))
        if amount:
            bets[target] = amount
    _check_totals(limits, bets)
    return bets


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad_target(state: MemeState, limits: BetLimits, target: int) -> str:
    if limits.stage == 1 and target == limits.own_seat:
        return (
            "Your own meme is not a guess: as the reactor you bet only on the other "
            "players' face-down guesses."
        )
    if limits.stage == 1:
        return (
            f"{state.label(target)} has no face-down guess on the table; as the reactor you bet "
            "only on the other players' guesses."
        )
    return f"{state.label(target)} has no guess on the table to bet on."


def _check_totals(limits: BetLimits, bets: Mapping[int, int]) -> None:
    total = sum(bets.values())
    if total > limits.max_total:
        if limits.cash:
            raise IllegalMove(
                "bet_over_money",
                f"You hold ${limits.max_total}, so you cannot bet {_amount(limits, total)}.",
            )
        raise IllegalMove(
            "bet_too_many",
            f"You have {TOKENS} tokens; you tried to place {_amount(limits, total)}.",
        )
    if total < limits.min_total:
        if limits.cash:
            raise IllegalMove(
                "bet_too_few",
                "As the reactor you must bet at least $1 while you hold any money.",
            )
        raise IllegalMove("bet_too_few", "As the reactor you must place at least 1 token.")
    if limits.own_seat is not None and limits.max_own is not None:
        own = bets.get(limits.own_seat, 0)
        if own > limits.max_own:
            raise IllegalMove(
                "bet_own_limit",
                f"At most {limits.max_own} of your tokens may go on your own guess "
                f"(you tried {own}).",
            )


def correct_seats(state: MemeState) -> tuple[int, ...]:
    """Seats whose guess is the reactor's meme."""
    return tuple(seat for seat in state.bettors() if state.guesses.get(seat) == state.reaction)


def all_bets(state: MemeState) -> dict[int, Bets]:
    """Every bettor's bets this turn, the reactor's included."""
    placed: dict[int, Bets] = dict(state.bets)
    if state.reactor is not None and state.reactor_bets:
        placed[state.reactor] = state.reactor_bets
    return placed


def payouts(state: MemeState) -> list[dict[str, int]]:
    """Every seat's ``{seat, won, lost, net}`` in dollars once the reactor's meme is known."""
    correct = set(correct_seats(state))
    placed = all_bets(state)
    results = []
    for seat in state.seats:
        bets = placed.get(seat, {})
        won = sum(amount for target, amount in bets.items() if target in correct)
        lost = sum(amount for target, amount in bets.items() if target not in correct)
        lost = lost if state.final else 0
        results.append({"seat": seat, "won": won, "lost": lost, "net": won - lost})
    return results
