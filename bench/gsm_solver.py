"""Game, Set, Match!: how fast the placement search and the solver are, next to brute force.

Run with ``.venv/bin/python bench/gsm_solver.py`` (``--smoke``: a few boards and
hands, to check that it still runs; its figures mean nothing). Not a test: it
prints a table and, as its last line, one JSON object with the figures. Goals:
legal placements on a 40-card board under 1 ms, a 7-card Scramble hand solved
in under 5 ms (medians).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partyhost.decks.files import load_deck_file
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement, fits
from partyhost.engine.gsm.solver import solve
from partyhost.engine.rng import Rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from gsm_reference import brute_placements, naive_solvable

DECK_FILE = Path(__file__).resolve().parent.parent / "decks" / "game-set-match.yaml"
BOARDS = 30
HANDS = 300
NAIVE_HANDS = 40
NAIVE_BUDGET = 100_000
SMOKE_BOARDS, SMOKE_HANDS, SMOKE_NAIVE_HANDS = 2, 40, 3


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return (time.perf_counter() - start) * 1000, result


def board_of(deck: Deck, rng: Rng, size: int) -> tuple[list[Placement], list[int]]:
    """A random legal board of ``size`` cards and the cards left over."""
    board: list[Placement] = []
    order = rng.shuffled(range(len(deck.cards)))
    for card in order:
        if len(board) == size:
            break
        options = fits(deck, board, [card], True)
        if options:
            pick = rng.choice(options)
            board.append(Placement(pick["card"], pick["x"], pick["y"], pick["turned"]))
    used = {p.card for p in board}
    return board, [c for c in order if c not in used]


def bench_placements(deck: Deck, rng: Rng, boards: int) -> dict[str, float]:
    cards = {card.id: card.cells for card in deck.cards}
    fast, brute, found = [], [], []
    for _ in range(boards):
        board, rest = board_of(deck, rng, 40)
        assert len(board) == 40, "could not grow a 40-card board"
        hand = rest[:7]
        layout = {p.slot: (p.card, p.turned) for p in board}
        fast_ms, quick = timed(lambda: fits(deck, board, hand, True))  # noqa: B023
        slow_ms, slow = timed(lambda: brute_placements(2, 2, cards, layout, hand, True))  # noqa: B023
        got = {(f["card"], f["x"], f["y"], f["turned"]) for f in quick}
        assert got == slow, "fast search and brute force disagree"
        fast.append(fast_ms)
        brute.append(slow_ms)
        found.append(len(got))
    return {
        "fast": statistics.median(fast),
        "brute": statistics.median(brute),
        "placements": statistics.median(found),
    }


def bench_solver(deck: Deck, rng: Rng, hand_count: int, naive_hands: int) -> dict[str, float]:
    cards = {card.id: card.cells for card in deck.cards}
    hands = [rng.shuffled(range(len(deck.cards)))[:7] for _ in range(hand_count)]
    fast, solvable = [], 0
    for hand in hands:
        ms, solution = timed(lambda: solve(deck.table, hand, True))  # noqa: B023
        fast.append(ms)
        solvable += solution is not None
    naive, undecided, agree = [], 0, True
    for hand in hands[:naive_hands]:
        ms, verdict = timed(lambda: naive_solvable(2, 2, cards, hand, True, NAIVE_BUDGET))  # noqa: B023
        naive.append(ms)
        if verdict is None:
            undecided += 1
        elif verdict != (solve(deck.table, hand, True) is not None):
            agree = False
    stuck = [h for h in hands if solve(deck.table, h, False) is None][:naive_hands]
    proof, proof_naive, proof_undecided = [], [], 0
    for hand in stuck:
        proof.append(timed(lambda: solve(deck.table, hand, False))[0])  # noqa: B023
        ms, verdict = timed(lambda: naive_solvable(2, 2, cards, hand, False, NAIVE_BUDGET))  # noqa: B023
        proof_naive.append(ms)
        proof_undecided += verdict is None
        agree = agree and verdict is not True
    return {
        "proof": statistics.median(proof),
        "proof_naive": statistics.median(proof_naive),
        "proof_hands": len(stuck),
        "proof_undecided": proof_undecided,
        "fast": statistics.median(fast),
        "fast_max": max(fast),
        "naive": statistics.median(naive),
        "solvable": solvable / len(hands),
        "undecided": undecided,
        "agree": agree,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a quick check that it runs")
    smoke = parser.parse_args().smoke
    boards, hands, naive_hands = (
        (SMOKE_BOARDS, SMOKE_HANDS, SMOKE_NAIVE_HANDS) if smoke else (BOARDS, HANDS, NAIVE_HANDS)
    )
    deck = load_deck_file(DECK_FILE).deck
    assert isinstance(deck, Deck)
    deck.table  # noqa: B018  (built once per deck, like the host does)
    rng = Rng(2024)
    placements = bench_placements(deck, rng, boards)
    solver = bench_solver(deck, rng, hands, naive_hands)
    rows = [
        ("legal placements, 40-card board, 7-card hand", placements["fast"], placements["brute"]),
        ("solve a random 7-card Scramble hand", solver["fast"], solver["naive"]),
        ("prove a 7-card hand impossible (no turning)", solver["proof"], solver["proof_naive"]),
    ]
    print(f"{'median over runs':<46} {'engine ms':>10} {'brute ms':>10} {'speed-up':>9}")
    for name, fast, slow in rows:
        print(f"{name:<46} {fast:>10.3f} {slow:>10.2f} {slow / fast:>8.0f}x")
    print(
        f"({boards} boards, {placements['placements']:.0f} legal placements each (median); "
        f"{hands} hands, {solver['solvable']:.1%} solvable, slowest solve "
        f"{solver['fast_max']:.2f} ms; brute-force solver on {naive_hands} hands, "
        f"{solver['undecided']} undecided within {NAIVE_BUDGET} tries, agrees: {solver['agree']}; "
        f"{solver['proof_hands']} impossible hands, brute force gave up on "
        f"{solver['proof_undecided']} of them)"
    )
    figures = {
        "legal_placements_ms": round(placements["fast"], 4),
        "legal_placements_brute_ms": round(placements["brute"], 3),
        "solve_7_ms": round(solver["fast"], 4),
        "solve_7_max_ms": round(solver["fast_max"], 3),
        "solve_7_brute_ms": round(solver["naive"], 3),
        "prove_impossible_ms": round(solver["proof"], 4),
        "prove_impossible_brute_ms": round(solver["proof_naive"], 3),
        "solvable_share": round(solver["solvable"], 4),
        "agree": solver["agree"],
        "goals_met": placements["fast"] < 1 and solver["fast"] < 5,
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
