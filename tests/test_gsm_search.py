"""Game, Set, Match!: the fast placement search and the solver agree with brute force."""

from __future__ import annotations

from gsm_reference import brute_placements, brute_solvable, layout_ok
from gsmplay import make_deck, random_cards, shipped_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from partyhost.engine.gsm.board import is_connected
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement, fits
from partyhost.engine.gsm.solver import Spot, solve
from partyhost.engine.rng import Rng

SHAPES = [(2, 2), (1, 3), (3, 2), (1, 2)]
TIGHT = {  # few objects and colors, so many hands cannot be arranged
    (2, 2): random_cards(2, 2, 30, seed=3, objects="GTBHS", colors="rbgpy"),
    (1, 3): random_cards(1, 3, 12, seed=3, objects="GTB", colors="rbg"),
}


def _grow_board(deck: Deck, rng: Rng, size: int, rotate: bool) -> list[Placement]:
    """A random legal board built card by card with the fast search."""
    board: list[Placement] = []
    for card in rng.shuffled(range(len(deck.cards))):
        if len(board) >= size:
            break
        options = fits(deck, board, [card], rotate)
        if options:
            pick = rng.choice(options)
            board.append(Placement(pick["card"], pick["x"], pick["y"], pick["turned"]))
    return board


@settings(max_examples=40, deadline=None)
@given(
    shape=st.sampled_from(SHAPES),
    seed=st.integers(0, 2**32),
    size=st.integers(0, 12),
    rotate=st.booleans(),
)
def test_legal_placements_match_brute_force(
    shape: tuple[int, int], seed: int, size: int, rotate: bool
) -> None:
    rows, cols = shape
    deck = make_deck([], rows, cols)
    rng = Rng(seed)
    board = _grow_board(deck, rng, size, rotate)
    used = {p.card for p in board}
    hand = [c for c in rng.shuffled(range(len(deck.cards))) if c not in used][:5]
    fast = {(f["card"], f["x"], f["y"], f["turned"]) for f in fits(deck, board, hand, rotate)}
    cards = {card.id: card.cells for card in deck.cards}
    layout = {p.slot: (p.card, p.turned) for p in board}
    assert fast == brute_placements(rows, cols, cards, layout, hand, rotate)


@settings(max_examples=100, deadline=None)
@given(
    shape=st.sampled_from(sorted(TIGHT)),
    seed=st.integers(0, 2**32),
    size=st.integers(1, 4),
    rotate=st.booleans(),
)
def test_solver_agrees_with_brute_force_on_small_hands(
    shape: tuple[int, int], seed: int, size: int, rotate: bool
) -> None:
    rows, cols = shape
    deck = make_deck(TIGHT[shape], rows, cols)
    hand = Rng(seed).shuffled(range(len(TIGHT[shape])))[:size]
    cards = {card.id: card.cells for card in deck.cards}
    solution = solve(deck.table, hand, rotate)
    assert (solution is not None) == brute_solvable(rows, cols, cards, hand, rotate)
    if solution is not None:
        _assert_valid(deck, hand, solution, rotate)


def _assert_valid(deck: Deck, hand: list[int], solution: list[Spot], rotate: bool) -> None:
    cards = {card.id: card.cells for card in deck.cards}
    layout = {(s.x, s.y): (s.card, s.turned) for s in solution}
    assert sorted(s.card for s in solution) == sorted(hand)
    assert len(layout) == len(hand)
    assert is_connected(layout)
    assert layout_ok(deck.rows, deck.cols, cards, layout)
    assert layout[(0, 0)] == (hand[0], False)  # the anchor: first card upright at the origin
    assert rotate or not any(s.turned for s in solution)


def test_solver_arranges_random_seven_card_hands_of_the_shipped_deck() -> None:
    deck = shipped_deck()
    rng = Rng(11)
    solved = 0
    for _ in range(60):
        hand = rng.shuffled(range(60))[:7]
        solution = solve(deck.table, hand, True)
        if solution is not None:
            solved += 1
            _assert_valid(deck, hand, solution, True)
    assert solved >= 55


def test_solver_proves_a_hand_impossible() -> None:
    deck = make_deck(TIGHT[(2, 2)])
    cards = {card.id: card.cells for card in deck.cards}
    triples = [[a, b, c] for a in range(8) for b in range(a + 1, 8) for c in range(b + 1, 8)]
    impossible = [hand for hand in triples if not brute_solvable(2, 2, cards, hand, True)]
    assert impossible  # the tight deck has hands that cannot be arranged
    for hand in impossible[:20]:
        assert solve(deck.table, hand, True) is None


def test_solver_handles_other_shapes() -> None:
    for rows, cols in [(1, 3), (3, 2), (2, 3)]:
        deck = make_deck([], rows, cols)
        rng = Rng(rows * 10 + cols)
        solved = 0
        for _ in range(10):
            hand = rng.shuffled(range(len(deck.cards)))[:7]
            solution = solve(deck.table, hand, True)
            if solution is not None:
                solved += 1
                _assert_valid(deck, hand, solution, True)
        assert solved
