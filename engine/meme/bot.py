"""Bots for What Do You Meme?, playing from the view a person in their seat gets.

A bot reads the scenario through the memes' keywords, remembers each reactor's
revealed choices and, in the second betting, where the reactor bet. Its
temperament comes from its seat and the public roll-off: fixed for a game
without any memory, different from game to game.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from partyhost.engine.core import Command, View
from partyhost.engine.rng import Rng

_WORD = re.compile(r"[a-z']+")


@dataclass(frozen=True)
class Temperament:
    boldness: float
    """0.2 (careful) to 0.9 (reckless): how much of what it may bet it does bet."""
    faith: float
    """How much it trusts the scenario's words over habits."""
    leanings: tuple[float, ...]
    """Per meme, 0 to 1: reactions this bot likes to use and expects of others."""


def temperament(view: View) -> Temperament:
    """Stable for a seat within one game: seeded by the seat and the public roll-off."""
    seed = 0x6D656D65 + 7919 * int(view.get("you") or 0)
    for attempt in view["rolloff"]["attempts"]:
        for roll in attempt:
            seed = seed * 31 + 11 * int(roll["seat"]) + int(roll["value"])
    rng = Rng(seed)
    memes = len(view["memes"])
    return Temperament(
        boldness=0.2 + 0.7 * rng.below(1001) / 1000,
        faith=0.5 + rng.below(1001) / 1000,
        leanings=tuple(rng.below(1001) / 1000 for _ in range(memes)),
    )


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """The bot's move, or None when it has nothing to do."""
    legal: Sequence[Command] = view.get("legal") or []
    if not legal:
        return None
    template = legal[0]
    kind = template["type"]
    turn = template.get("turn")
    if kind == "roll":
        return {"type": "roll", "turn": turn}
    mood = temperament(view)
    if kind == "react":
        weights = [
            1.0 + 3.0 * mood.faith * fit + 1.5 * lean
            for fit, lean in zip(scenario_fit(view), mood.leanings, strict=True)
        ]
        return {"type": "react", "turn": turn, "meme": _weighted(rng, weights)}
    if kind == "guess":
        beliefs = predict_reaction(view, mood)
        return {"type": "guess", "turn": turn, "meme": _weighted(rng, beliefs)}
    if kind == "bet":
        if template["stage"] == 1:
            return _reactor_bet(view, template, mood, rng)
        return _guesser_bet(view, template, mood, rng)
    return None


def scenario_fit(view: View) -> list[float]:
    """Per meme, how many of its keywords the scenario's words start with."""
    scenario = view.get("scenario") or {}
    words = _WORD.findall(str(scenario.get("text", "")).lower())
    fits = []
    for meme in view["memes"]:
        keywords = meme.get("keywords") or []
        fits.append(float(sum(1 for word in words for key in keywords if word.startswith(key))))
    return fits


def predict_reaction(view: View, mood: Temperament) -> list[float]:
    """Weights for each meme being the reactor's, from public facts only."""
    reactor = view.get("reactor")
    habits = [0.0] * len(view["memes"])
    for record in view.get("history", []):
        if record.get("reactor") == reactor and record.get("reaction") is not None:
            habits[int(record["reaction"])] += 1.0
    table = view.get("table") or {}
    hinted = [0.0] * len(view["memes"])
    for bet in table.get("reactor_bets") or []:
        for guess in table.get("guesses", []):
            if guess["seat"] == bet["seat"] and guess.get("meme") is not None:
                hinted[int(guess["meme"])] += 0.4 * int(bet["amount"])
    return [
        0.5 + 2.0 * mood.faith * fit + 1.2 * habit + 0.6 * lean + hint
        for fit, habit, lean, hint in zip(
            scenario_fit(view), habits, mood.leanings, hinted, strict=True
        )
    ]


def _reactor_bet(view: View, template: Command, mood: Temperament, rng: Rng) -> Command:
    """Tokens (or dollars) on the players who read this reactor best so far."""
    targets = [target["seat"] for target in template["targets"]]
    skill = {seat: _accuracy(view, seat) for seat in targets}
    ranked = sorted(targets, key=lambda seat: (-skill[seat], rng.below(1000)))
    own = (view["table"]["reaction"] or {}).get("meme")
    fits = scenario_fit(view)
    clear = fits[own] / (sum(fits) or 1.0) if own is not None else 0.0
    sure = min(0.9, 0.3 + 0.5 * clear + 0.3 * skill[ranked[0]])
    total = _stake(template, mood, sure, rng)
    if total == 0:
        return _bet_command(template, {})
    spread = 1 if mood.boldness > 0.6 else min(len(ranked), 2, total)
    share, extra = divmod(total, spread)
    bets = {seat: share + (index < extra) for index, seat in enumerate(ranked[:spread])}
    return _bet_command(template, bets)


def _guesser_bet(view: View, template: Command, mood: Temperament, rng: Rng) -> Command:
    """Back the meme it believes in, as much as it is sure of it."""
    beliefs = predict_reaction(view, mood)
    total_belief = sum(beliefs) or 1.0
    shown = {g["seat"]: g["meme"] for g in view["table"]["guesses"] if g.get("meme") is not None}
    targets = {t["seat"]: t for t in template["targets"] if t["seat"] in shown}
    if not targets:
        return _bet_command(template, {})
    best = max(sorted(set(shown[seat] for seat in targets)), key=lambda meme: beliefs[meme])
    sure = beliefs[best] / total_belief
    total = _stake(template, mood, sure, rng)
    bets: dict[int, int] = {}
    backers = [seat for seat in targets if shown[seat] == best]
    backers.sort(key=lambda seat: (targets[seat]["own"], seat))
    for seat in backers:
        room = min(int(targets[seat]["max"]), total - sum(bets.values()))
        if room > 0:
            bets[seat] = room
    return _bet_command(template, bets)


def _stake(template: Command, mood: Temperament, sure: float, rng: Rng) -> int:
    """How much to bet: more when bold and sure; never outside the template's limits."""
    low, high = int(template["min_total"]), int(template["max_total"])
    share = max(0.0, min(1.0, (sure - 0.1) * mood.boldness * 2.2))
    if template["unit"] == "dollar":
        share *= 0.7
    wobble = rng.below(3) - 1 if high > 3 else 0
    amount = round(share * high) + wobble
    return max(low, min(high, amount))


def _accuracy(view: View, seat: int) -> float:
    """How often ``seat`` guessed right in finished turns (0.5 before any evidence)."""
    right = tried = 0
    for record in view.get("history", []):
        for guess in record.get("guesses", []):
            if guess["seat"] == seat and record.get("reaction") is not None:
                tried += 1
                right += guess["meme"] == record["reaction"]
    return (right + 1) / (tried + 2)


def _bet_command(template: Command, bets: Mapping[int, int]) -> Command:
    entries: list[dict[str, Any]] = [
        {"seat": seat, "amount": amount} for seat, amount in sorted(bets.items()) if amount
    ]
    return {"type": "bet", "turn": template.get("turn"), "bets": entries}


def _weighted(rng: Rng, weights: Sequence[float]) -> int:
    """An index drawn in proportion to the squared weights (bots lean to their best idea)."""
    bounds = list(accumulate(max(1, int(weight * weight * 100)) for weight in weights))
    return bisect_right(bounds, rng.below(bounds[-1]))
