"""Helpers for the Game, Set, Match! tests: decks from text, bot-played games."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import partyhost.engine.gsm  # noqa: F401  (registers the four games)
from partyhost.decks.files import build_from_text
from partyhost.engine.core import Event, Game, IllegalMove, apply, apply_tick
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.rng import Rng

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "game-set-match.yaml"

LEGEND = """\
objects:
  - {name: golf ball, letter: G, glyph: "o"}
  - {name: tennis racket, letter: T, glyph: "t"}
  - {name: baseball glove, letter: M, glyph: "m"}
  - {name: football helmet, letter: H, glyph: "h"}
  - {name: basketball sneaker, letter: S, glyph: "s"}
  - {name: soccer ball, letter: B, glyph: "b"}
colors:
  - {name: red, letter: r, term: red}
  - {name: blue, letter: b, term: blue}
  - {name: green, letter: g, term: green}
  - {name: purple, letter: p, term: magenta}
  - {name: yellow, letter: y, term: yellow}
  - {name: white, letter: w, term: white}
"""


def shipped_deck() -> Deck:
    _, _, deck = build_from_text(SHIPPED.read_text(encoding="utf-8"), str(SHIPPED))
    assert isinstance(deck, Deck)
    return deck


def deck_text(cards: Sequence[str], rows: int = 2, cols: int = 2) -> str:
    lines = [
        "game: game-set-match",
        "version: 1",
        "name: Test",
        f"shape: {{rows: {rows}, cols: {cols}}}",
    ]
    lines.append(LEGEND.rstrip())
    lines.append("cards:")
    lines += [f'  - "{card}"' for card in cards]
    return "\n".join(lines) + "\n"


def shipped_cards() -> list[str]:
    return [
        line.strip()[3:-1]
        for line in SHIPPED.read_text(encoding="utf-8").splitlines()
        if line.startswith('  - "')
    ]


def make_deck(cards: Sequence[str], rows: int = 2, cols: int = 2) -> Deck:
    """A deck whose first cards (ids 0, 1, ...) are ``cards``, padded to a legal size.

    2 x 2 decks are padded with shipped cards, other shapes with random valid cards.
    """
    wanted = list(cards)

    def key(card: str) -> tuple[str, ...]:
        cells = tuple(card.replace("/", " ").split())
        return min(cells, cells[::-1])

    seen = {key(c) for c in wanted}
    pad = shipped_cards() if (rows, cols) == (2, 2) else random_cards(rows, cols, 30, seed=7)
    for card in pad:
        if len(wanted) >= 30:
            break
        if key(card) not in seen:
            wanted.append(card)
            seen.add(key(card))
    _, _, deck = build_from_text(deck_text(wanted, rows, cols), "test.yaml")
    assert isinstance(deck, Deck)
    return deck


def random_cards(
    rows: int, cols: int, count: int, seed: int, objects: str = "GTMHSB", colors: str = "rbgpyw"
) -> list[str]:
    """Valid distinct cards of any shape, drawn from the given object and color letters."""
    rng = Rng(seed)
    found: list[str] = []
    keys: set[tuple[str, ...]] = set()
    while len(found) < count:
        picked_objects = rng.shuffled(objects)[: rows * cols]
        picked_colors = rng.shuffled(colors)[: rows * cols]
        cells = [o + c for o, c in zip(picked_objects, picked_colors, strict=True)]
        key = tuple(cells)
        if key in keys or tuple(reversed(cells)) in keys:
            continue
        keys.add(key)
        found.append(" / ".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)))
    return found


def play_bots(
    game: Game,
    state: Any,
    seed: int,
    *,
    max_steps: int = 4000,
    check: Any = None,
) -> tuple[Any, list[Event], float]:
    """Let a bot play every seat until the game ends.

    Each bot acts after its own random reaction delay, as the host's bot
    runner would; the game's timers run whenever their deadline comes first.
    Every command a bot sends must be accepted.
    """
    rng = Rng(seed)

    def delay() -> float:
        return 0.05 + rng.below(1500) / 1000

    now = 0.0
    log: list[Event] = []
    next_at = {seat: delay() for seat in state.seats}
    for _ in range(max_steps):
        if game.is_over(state):
            return state, log, now
        seat = min(next_at, key=lambda s: (next_at[s], s))
        due = game.deadline(state)
        if due is not None and due <= next_at[seat]:
            now = max(now, due)
            state, events = apply_tick(game, state, now)
            log += events
            if check is not None and events:
                check(state, events)
            continue
        now = max(now, next_at[seat])
        next_at[seat] = now + delay()
        command = game.bot_command(game.view(state, seat), rng, now)
        if command is None:
            continue
        try:
            state, events = apply(game, state, seat, command, now)
        except IllegalMove as refused:
            raise AssertionError(f"bot at seat {seat} sent {command}: {refused!r}") from None
        log += events
        if check is not None:
            check(state, events)
    raise AssertionError(f"game did not end in {max_steps} steps")
