"""Game, Set, Match!: the card model, the adjacency rule and the deck file."""

from __future__ import annotations

import pytest
from gsm_reference import layout_ok
from gsmplay import SHIPPED, deck_text, make_deck, shipped_deck
from partyhost.cli import main
from partyhost.decks.files import DeckFileError, build_from_text
from partyhost.engine.core import IllegalMove
from partyhost.engine.gsm.deck import Deck
from partyhost.engine.gsm.placement import Placement, placement_clash

A = "Gr Tb / Hg Sw"


def _try(deck: Deck, board: list[Placement], move: Placement) -> str | None:
    """The engine's verdict, cross-checked against the cell-grid reference."""
    verdict = placement_clash(deck, board, move)
    cards = {card.id: card.cells for card in deck.cards}
    layout = {p.slot: (p.card, p.turned) for p in [*board, move]}
    assert layout_ok(deck.rows, deck.cols, cards, layout) == (verdict is None)
    return verdict


def test_rulebook_example_correct_match() -> None:
    deck = make_deck([A, "Gp Ty / Mr Sb"])
    assert _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0)) is None


def test_rulebook_example_two_helmets_side_by_side() -> None:
    deck = make_deck(["Gr Hb / Tg Sw", "Hy Bp / Mr Gg"])
    reason = _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0))
    assert (
        reason == "The yellow football helmet would touch the blue football helmet (same object)."
    )


def test_rulebook_example_two_rackets_on_a_diagonal() -> None:
    deck = make_deck([A, "Bp Gr / Ty Mg"])
    reason = _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0))
    assert reason is not None and "tennis racket" in reason and "same object" in reason


def test_rulebook_example_two_blue_things_touching() -> None:
    deck = make_deck(["Gr Hb / Tg Sw", "Bb Gy / Mr Tp"])
    reason = _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0))
    assert reason == "The blue soccer ball would touch the blue football helmet (same color)."


def test_rule_applies_above_and_below_too() -> None:
    deck = make_deck([A, "Hb Sg / By Tp", "By Mp / Gb Tr"])
    # below A: B's top row touches A's bottom row (Hg Sw)
    assert _try(deck, [Placement(0, 0, 0)], Placement(1, 0, 1)) is not None
    assert _try(deck, [Placement(0, 0, 0)], Placement(2, 0, 1)) is None


def test_corner_contact_alone_is_not_next_to() -> None:
    deck = make_deck([A, "Bp My / Sr Tg"])
    with pytest.raises(IllegalMove) as refused:
        placement_clash(deck, [Placement(0, 0, 0)], Placement(1, 1, 1))
    assert refused.value.code == "not_next_to"


def test_corner_contact_is_still_checked_against_the_rule() -> None:
    # A at (0,0) and C at (1,0); B goes below A and touches C only at a corner.
    deck = make_deck([A, "Gp Ty / Mr Sb", "Bp My / Gr Tb"])
    board = [Placement(0, 0, 0), Placement(1, 1, 0)]
    # C's bottom-left cell is Mr; card 2's top-right cell My is a baseball glove too.
    reason = _try(deck, board, Placement(2, 0, 1))
    assert reason is not None and "baseball glove" in reason
    assert _try(deck, [Placement(0, 0, 0)], Placement(2, 0, 1)) is None


def test_occupied_slot_is_refused() -> None:
    deck = make_deck([A, "Gp Ty / Mr Sb"])
    with pytest.raises(IllegalMove) as refused:
        placement_clash(deck, [Placement(0, 0, 0)], Placement(1, 0, 0))
    assert refused.value.code == "occupied"


def test_turning_a_card_180_degrees_reverses_its_cells() -> None:
    deck = make_deck(["Gr Hb / Tg Sw", "Hy Bp / Mr Gg"])
    codes = [deck.objects[o].letter + deck.colors[c].letter for o, c in deck.cells_of(1, True)]
    assert codes == ["Gg", "Mr", "Bp", "Hy"]
    # unturned the helmets touch; turned around it fits
    assert _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0)) is not None
    assert _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0, turned=True)) is None


@pytest.mark.parametrize(("rows", "cols"), [(1, 3), (3, 2), (2, 3), (1, 1)])
def test_other_card_shapes_follow_the_same_rule(rows: int, cols: int) -> None:
    deck = make_deck([], rows, cols)
    assert (deck.rows, deck.cols) == (rows, cols)
    assert all(len(card.cells) == rows * cols for card in deck.cards)
    cards = {card.id: card.cells for card in deck.cards}
    for other in range(1, 12):
        for slot in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            move = Placement(other, *slot, turned=other % 2 == 0)
            verdict = placement_clash(deck, [Placement(0, 0, 0)], move)
            layout = {(0, 0): (0, False), slot: (other, move.turned)}
            assert layout_ok(rows, cols, cards, layout) == (verdict is None)


def test_one_row_cards_touch_only_cell_to_cell_sideways() -> None:
    deck = make_deck(["Gr Tb Hg", "Sy Bp Gw", "Hy Bp Mr"], 1, 3)
    assert _try(deck, [Placement(0, 0, 0)], Placement(1, 1, 0)) is None  # Hg | Sy
    assert _try(deck, [Placement(0, 0, 0)], Placement(2, 1, 0)) is not None  # Hg | Hy
    assert _try(deck, [Placement(0, 0, 0)], Placement(2, 0, 1)) is None  # stacked, all differ


# ----------------------------------------------------------------- deck file
def test_shipped_deck_has_sixty_valid_cards() -> None:
    deck = shipped_deck()
    assert (deck.rows, deck.cols) == (2, 2)
    assert len(deck.cards) == 60
    assert [o.letter for o in deck.objects] == ["G", "T", "M", "H", "S", "B"]
    assert [c.name for c in deck.colors] == ["red", "blue", "green", "purple", "yellow", "white"]
    for card in deck.cards:
        assert len({obj for obj, _ in card.cells}) == 4
        assert len({color for _, color in card.cells}) == 4


def test_shipped_deck_validates_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "validate", str(SHIPPED)]) == 0
    assert "ok" in capsys.readouterr().out


def _errors(text: str) -> list[str]:
    with pytest.raises(DeckFileError) as caught:
        build_from_text(text, "deck.yaml")
    return [str(error) for error in caught.value.errors]


def test_bad_cards_are_reported_with_their_line_and_column() -> None:
    cards = ["Gr Tb / Hg Sw", "Gr Gb / Hg Sw", "Gr Tb / Hg", "Gx Tb / Hg Sw", "Sw Hg / Tb Gr"]
    text = deck_text(cards)
    errors = _errors(text)
    first = text.splitlines().index('  - "Gr Tb / Hg Sw"') + 1

    def reported(line: int, words: str) -> bool:
        return any(e.startswith(f"deck.yaml:{line}:5:") and words in e for e in errors)

    assert reported(first + 1, "object twice")
    assert reported(first + 2, "2 row(s) of 2")
    assert reported(first + 3, "color letter 'x'")
    assert reported(first + 4, "repeats card 1")
    assert any("needs at least 21 entries" in e for e in errors)


def test_bad_legend_and_shape_are_reported() -> None:
    text = deck_text(["Gr Tb / Hg Sw"] * 21).replace("letter: T,", "letter: G,")
    text = text.replace("term: magenta", "term: purple").replace("rows: 2", "rows: 9")
    text = text.replace("name: blue,", "name: RED,")
    errors = " | ".join(_errors(text))
    assert "letter 'G' is already used by object 1" in errors
    assert "color name repeats entry 1: 'RED'" in errors
    assert "unknown terminal color 'purple'" in errors
    assert "rows must be between 1 and 4, is 9" in errors
