"""Fixed Game, Set, Match! views, as ``partyhost.engine.gsm`` sends them.

Taken from seeded games of the shipped deck (seed 11) and written with the
deck file's card codes ("Gr Tb / Hg Sw": object letter, then color letter)
so they stay readable; :func:`cells` turns a code into the view's index
pairs. ``tests/test_tui_gsm_units.py`` checks the keys against real engine views.
"""

from __future__ import annotations

import copy
from typing import Any

from tuikit.samples import sample_room

Frame = dict[str, Any]

LEGEND: Frame = {
    "objects": [
        {"name": "golf ball", "letter": "G", "glyph": "⛳"},
        {"name": "tennis racket", "letter": "T", "glyph": "🎾"},
        {"name": "baseball mitt", "letter": "M", "glyph": "🧤"},
        {"name": "football helmet", "letter": "H", "glyph": "🏈"},
        {"name": "basketball sneaker", "letter": "S", "glyph": "👟"},
        {"name": "soccer ball", "letter": "B", "glyph": "⚽"},
    ],
    "colors": [
        {"name": "red", "letter": "r", "term": "red"},
        {"name": "blue", "letter": "b", "term": "blue"},
        {"name": "green", "letter": "g", "term": "green"},
        {"name": "purple", "letter": "p", "term": "magenta"},
        {"name": "yellow", "letter": "y", "term": "yellow"},
        {"name": "white", "letter": "w", "term": "bright_white"},
    ],
}
GAME_NAMES = {
    "stealing-home": "Game, Set, Match! - Stealing Home",
    "scramble": "Game, Set, Match! - Scramble",
    "gridiron": "Game, Set, Match! - Gridiron",
    "four-corners": "Game, Set, Match! - Four Corners",
}


def cells(code: str, legend: Frame | None = None) -> list[list[list[int]]]:
    """``"Gr Tb / Hg Sw"`` as rows of [object, color] legend indexes."""
    legend = legend or LEGEND
    objects = [o["letter"] for o in legend["objects"]]
    colors = [c["letter"] for c in legend["colors"]]
    return [
        [[objects.index(cell[0]), colors.index(cell[1])] for cell in row.split()]
        for row in code.split("/")
    ]


def card(card_id: int, code: str) -> Frame:
    """A hand or face-up card (unturned)."""
    return {"id": card_id, "cells": cells(code)}


def placed(card_id: int, x: int, y: int, turned: bool, owner: int | None, code: str) -> Frame:
    """A board card; ``code`` is the card as it lies (turn applied)."""
    return {
        "id": card_id,
        "cells": cells(code),
        "card": card_id,
        "x": x,
        "y": y,
        "turned": turned,
        "owner": owner,
    }


def gsm_room(game: str, *, seats: int = 4, status: str = "playing") -> Frame:
    """The room frame around a Game, Set, Match! game (Ann is seat 0, the owner)."""
    room = sample_room(status=status)
    room.update(game=game, game_name=GAME_NAMES[game], deck="game-set-match", options={})
    room["seats"] = room["seats"][:seats]
    room.update(min_players=2, max_players=2 if game == "four-corners" else 6)
    return room


def _base(game: str, phase: str, version: int, rules: Frame, legal: list[Frame]) -> Frame:
    return {
        "game": game,
        "phase": phase,
        "you": 0,
        "version": version,
        "legal": legal,
        "legend": copy.deepcopy(LEGEND),
        "shape": {"rows": 2, "cols": 2},
        "rules": {"rotate": True, "hints": False, **rules},
        "winners": [],
        "deadline": None,
    }


def stealing_home_view(**overrides: Any) -> Frame:
    """Round 2: Bea matched in round 1; Carl is locked out, Dev said "no fit"."""
    legal: list[Frame] = [
        {"type": "match", "cards": [45, 48], "turned": [False, True]},
        {"type": "no_fit"},
    ]
    view = _base("stealing-home", "round", 3, {"tie_window_ms": 150, "round_seconds": 60}, legal)
    flags = {"locked": False, "voted": False, "away": False, "left": False}
    view.update(
        board=[
            placed(24, 0, 0, True, None, "Bb My / Tp Sr"),
            placed(35, 1, 0, True, None, "Bp Mw / Gb Hg"),
            placed(5, 0, 1, False, None, "Gy Bw / Mp Hr"),
            placed(41, 1, 1, True, None, "Ty Sr / Gg Hp"),
            placed(47, 0, -1, False, 1, "Hw Bp / Tr Gg"),
        ],
        face_up=[card(45, "Mg Hr / Tb Bw"), card(48, "Gy Hb / Mg Bw")],
        pile=52,
        out_of_play=0,
        round=2,
        tiebreak=None,
        called=[],
        scores=[
            {"seat": 0, "cards": 0, **flags},
            {"seat": 1, "cards": 1, **flags},
            {"seat": 2, "cards": 0, **flags, "locked": True},
            {"seat": 3, "cards": 0, **flags, "voted": True},
        ],
        deadlines={"round": None, "tie": None},
        last={"seat": 1, "card": 47, "x": 0, "y": -1, "turned": False, "kept": 28},
    )
    view.update(overrides)
    return view


def scramble_view(**overrides: Any) -> Frame:
    """Ann has laid out three of her seven cards; the others are busy too."""
    hand = [
        (59, "Gr Mw / Hp Ty"),
        (41, "Hp Gg / Sr Ty"),
        (35, "Hg Gb / Mw Bp"),
        (1, "Bg Mr / Ty Sw"),
    ]
    board = [
        placed(3, 0, 0, False, 0, "Tg Gy / Mp Sr"),
        placed(5, -1, 0, False, 0, "Gy Bw / Mp Hr"),
        placed(24, -1, -1, True, 0, "Bb My / Tp Sr"),
    ]
    on_board = [entry["card"] for entry in board]
    legal: list[Frame] = [
        {"type": "place", "cards": [c for c, _ in hand] + on_board, "turned": [False, True]},
        {"type": "take_back", "cards": on_board},
        {"type": "turn", "cards": on_board},
        {"type": "stuck"},
    ]
    view = _base("scramble", "race", 12, {"solvable_deals": True, "match": "best-of-3"}, legal)
    flags = {"away": False, "left": False}
    view.update(
        hand=[card(c, code) for c, code in hand],
        board=board,
        game_number=2,
        stuck=[],
        wins_needed=2,
        scores=[
            {"seat": 0, "placed": 3, "hand": 4, "wins": 1, **flags},
            {"seat": 1, "placed": 5, "hand": 2, "wins": 0, **flags},
            {"seat": 2, "placed": 1, "hand": 6, "wins": 0, **flags},
            {"seat": 3, "placed": 6, "hand": 1, "wins": 0, **flags},
        ],
        deadlines={},
        last=None,
    )
    view.update(overrides)
    return view


GRIDIRON_FITS = [
    (5, 3, -3, True),
    (41, 3, -3, True),
    (59, 3, -3, False),
    (24, -2, -2, True),
    (5, -1, -2, False),
    (24, 0, -2, True),
    (1, 4, -2, False),
    (35, 4, -2, False),
    (59, 4, -2, True),
    (5, -3, -1, True),
    (24, -3, -1, False),
    (35, -3, -1, False),
    (41, 4, -1, True),
    (5, 2, 0, False),
    (24, 2, 0, True),
    (35, 2, 0, True),
    (41, 3, 0, False),
    (24, 0, 1, False),
    (41, 0, 1, True),
    (59, 0, 1, True),
]


def gridiron_view(*, hints: bool = True, **overrides: Any) -> Frame:
    """Ann's turn after seven placements (the room has hints on unless ``hints=False``)."""
    hand = [
        (59, "Gr Mw / Hp Ty"),
        (5, "Gy Bw / Mp Hr"),
        (41, "Hp Gg / Sr Ty"),
        (35, "Hg Gb / Mw Bp"),
        (1, "Bg Mr / Ty Sw"),
        (24, "Sr Tp / My Bb"),
    ]
    template: Frame = {"type": "place", "cards": [c for c, _ in hand], "turned": [False, True]}
    if hints:
        template["fits"] = [
            {"card": c, "x": x, "y": y, "turned": t} for c, x, y, t in GRIDIRON_FITS
        ]
    view = _base("gridiron", "turns", 7, {"hints": hints, "first_seat": 1}, [template])
    flags = {"away": False, "left": False}
    view.update(
        board=[
            placed(37, 0, 0, False, None, "Bp Tr / Mg Gw"),
            placed(48, 0, -1, True, 1, "Bw Mg / Hb Gy"),
            placed(29, 1, -1, False, 2, "Tb By / Hw Mr"),
            placed(54, 2, -1, False, 3, "Gb Hp / Tg Sr"),
            placed(3, -1, -1, False, 0, "Tg Gy / Mp Sr"),
            placed(45, 3, -1, False, 1, "Mg Hr / Tb Bw"),
            placed(56, -2, -1, True, 2, "Hw By / Sg Gb"),
            placed(15, 3, -2, True, 3, "Mb Sr / By Gp"),
        ],
        hand=[card(c, code) for c, code in hand],
        pile=31,
        turn=0,
        passes=0,
        scores=[
            {"seat": 0, "hand": 6, **flags},
            {"seat": 1, "hand": 5, **flags},
            {"seat": 2, "hand": 5, **flags},
            {"seat": 3, "hand": 5, **flags},
        ],
        deadlines={},
        last={"seat": 3, "card": 15, "x": 3, "y": -2, "turned": True, "hand": 5},
    )
    view.update(overrides)
    return view


def gridiron_draw_view() -> Frame:
    """Nothing in Ann's hand fits: the host offers only "draw"."""
    return gridiron_view(hints=False, legal=[{"type": "draw"}])


def four_corners_view(**overrides: Any) -> Frame:
    """Ann builds left-right (horizontal), Bea up-down; Ann may take back either end card."""
    hand = [
        (3, "Tg Gy / Mp Sr"),
        (59, "Gr Mw / Hp Ty"),
        (35, "Hg Gb / Mw Bp"),
        (1, "Bg Mr / Ty Sw"),
        (24, "Sr Tp / My Bb"),
        (47, "Hw Bp / Tr Gg"),
        (28, "Hb Gr / By Sw"),
    ]
    legal: list[Frame] = [
        {
            "type": "place",
            "cards": [c for c, _ in hand],
            "turned": [False, True],
            "slots": [[3, 0], [-2, 0]],
        },
        {"type": "take_back", "cards": [41, 45]},
        {"type": "stuck"},
    ]
    view = _base("four-corners", "race", 6, {"stall_seconds": 120}, legal)
    flags = {"away": False, "left": False}
    view.update(
        board=[
            placed(56, 0, 0, False, None, "Gb Sg / By Hw"),
            placed(5, 1, 0, False, 0, "Gy Bw / Mp Hr"),
            placed(44, 0, 1, False, 1, "Tb Sg / Br Mw"),
            placed(45, 2, 0, False, 0, "Mg Hr / Tb Bw"),
            placed(27, 0, -1, True, 1, "Bp Tr / Hy Mw"),
            placed(41, -1, 0, True, 0, "Ty Sr / Gg Hp"),
        ],
        hand=[card(c, code) for c, code in hand],
        axes=[{"seat": 0, "axis": "h"}, {"seat": 1, "axis": "v"}],
        stuck=[],
        scores=[{"seat": 0, "hand": 7, **flags}, {"seat": 1, "hand": 8, **flags}],
        deadlines={"stall": None},
        last={"seat": 0, "card": 41, "x": -1, "y": 0, "turned": True, "hand": 7, "at": 105.0},
    )
    view.update(overrides)
    return view


SAMPLE_VIEWS = {
    "stealing-home": stealing_home_view,
    "scramble": scramble_view,
    "gridiron": gridiron_view,
    "four-corners": four_corners_view,
}
