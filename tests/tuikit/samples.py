"""Fixed sample frames, as ``partyhost.net`` and ``partyhost.engine`` send them.

Screens are tested and snapshotted from these, so their pictures never depend
on a shuffle; ``tests/test_tui_units.py`` checks they keep the engine's keys.
"""

from __future__ import annotations

import copy
from typing import Any

Frame = dict[str, Any]

TSHIRT_OPTIONS: list[Frame] = [
    {
        "name": "hand_size",
        "label": "Hand size",
        "kind": "int",
        "default": 3,
        "min": 1,
        "max": 7,
        "help": "Slogan cards each player holds.",
        "choices": [],
        "allow_none": False,
    },
    {
        "name": "target",
        "label": "Points to win",
        "kind": "int",
        "default": 3000,
        "min": 500,
        "max": 20000,
        "help": "The first player to reach this score wins.",
        "choices": [],
        "allow_none": False,
    },
    {
        "name": "submit_timer",
        "label": "Slogan timer (s)",
        "kind": "int",
        "default": None,
        "min": 10,
        "max": 600,
        "help": "Seconds to play a slogan.",
        "choices": [],
        "allow_none": True,
    },
]


HOST_ID = "0123456789abcdef0123456789abcdef"
"""The sample host's ``welcome.host_id``."""


def sample_welcome(host: str = "Dana's laptop") -> Frame:
    return {
        "t": "welcome",
        "protocol": 1,
        "host": host,
        "host_id": HOST_ID,
        "resumed": False,
        "web_door": None,
        "games": [
            {
                "id": "tshirt",
                "name": "The T-Shirt Game",
                "min_players": 3,
                "max_players": 10,
                "deck_game": "tshirt",
                "default_deck": "the-t-shirt-game",
                "options": copy.deepcopy(TSHIRT_OPTIONS),
                "joins_mid_game": True,
                "decks": [
                    {
                        "name": "the-t-shirt-game",
                        "title": "Classic",
                        "description": "The original deck: 160 slogans, 70 T-shirts.",
                    },
                    {
                        "name": "office-party",
                        "title": "Office party",
                        "description": "Slogans for the break room.",
                    },
                ],
            }
        ],
    }


def sample_rooms() -> list[Frame]:
    return [
        {
            "code": "KQZD",
            "game": "tshirt",
            "game_name": "The T-Shirt Game",
            "deck": "the-t-shirt-game",
            "seats": 3,
            "max_seats": 10,
            "status": "lobby",
            "has_password": False,
            "owner_name": "Bea",
            "spectators": 0,
        },
        {
            "code": "PLMX",
            "game": "tshirt",
            "game_name": "The T-Shirt Game",
            "deck": "office-party",
            "seats": 5,
            "max_seats": 10,
            "status": "playing",
            "has_password": True,
            "owner_name": "[red]Mallory",
            "spectators": 1,
        },
    ]


def seat_entry(seat: int, name: str, **flags: Any) -> Frame:
    entry = {
        "seat": seat,
        "name": name,
        "ready": False,
        "bot": False,
        "connected": True,
        "away": False,
        "stand_in": False,
        "left": False,
        "presence": "connected",
        "grace_left": None,
    }
    entry.update(flags)
    return entry


def sample_room(
    *, you: int | None = 0, status: str = "lobby", owner: int = 0, seats: list[Frame] | None = None
) -> Frame:
    return {
        "t": "room",
        "code": "KQZD",
        "game": "tshirt",
        "game_name": "The T-Shirt Game",
        "deck": "the-t-shirt-game",
        "options": {"target": 1500},
        "rules": {"hand_size": 3, "target": 1500, "submit_timer": None},
        "bot_takeover": True,
        "has_password": False,
        "owner": owner,
        "you": you,
        "status": status,
        "seats": seats
        if seats is not None
        else [
            seat_entry(0, "Ann", ready=True),
            seat_entry(1, "Bea", ready=True, bot=True),
            seat_entry(2, "Carl"),
            seat_entry(3, "Dev", ready=True, bot=True),
        ],
        "spectators": 0,
        "min_players": 3,
        "max_players": 10,
    }


CAT_ART = (
    "  /\\_/\\      \\ | /\n ( 0=0 )    -- O --\n  > ^ <      / | \\\n~~~~~~~~~~~~~~~~~~~~~~\n"
)
HAND = [
    {"card": 11, "text": "I survived the group chat"},
    {"card": 42, "text": "Powered by snacks and poor decisions"},
    {"card": 7, "text": "Warning: may start talking about bread"},
]
SUBMISSIONS = [
    {"index": 0, "text": "Certified nap technician"},
    {"index": 1, "text": "Powered by snacks and poor decisions"},
    {"index": 2, "text": "Do not feed after midnight. Or before."},
]


def player(seat: int, score: int = 0, cards: list[int] | None = None, **extra: Any) -> Frame:
    won = [
        {"card": 60 + i, "points": points, "verdict": f"A {points}-point verdict.", "booyah": False}
        for i, points in enumerate(cards or [])
    ]
    entry = {
        "seat": seat,
        "presence": "active",
        "score": score if not cards else sum(cards),
        "cards": won,
        "hand_count": 3,
        "is_judge": False,
    }
    entry.update(extra)
    return entry


def tshirt_view(
    phase: str = "submitting", *, you: int | None = 0, judge: int = 1, **overrides: Any
) -> Frame:
    """A T-Shirt Game view as the engine builds it; ``overrides`` replace keys."""
    players = [
        player(0, cards=[250, 400]),
        player(1, cards=[1000]),
        player(2, cards=[150]),
        player(3, cards=[]),
    ]
    for entry in players:
        entry["is_judge"] = entry["seat"] == judge
    legal: list[Frame] = []
    if phase == "submitting" and you is not None and you != judge:
        legal = [{"type": "submit", "card": card["card"]} for card in HAND]
    if phase == "judging" and you == judge:
        legal = [{"type": "pick", "index": sub["index"], "v": 17} for sub in SUBMISSIONS]
    view: Frame = {
        "game": "tshirt",
        "version": 17,
        "phase": phase,
        "round": 4,
        "judge": judge,
        "you": you,
        "target": 1500,
        "hand_size": 3,
        "timers": {"submit": None, "judge": None},
        "players": players,
        "hand": copy.deepcopy(HAND) if you is not None else [],
        "tshirt": {
            "card": 3,
            "picture": "A cat in sunglasses sunbathing on the beach",
            "art": CAT_ART,
        },
        "submitted": [2] if phase == "submitting" else [],
        "waiting_for": [s for s in (0, 2, 3) if s not in (judge, 2)]
        if phase == "submitting"
        else [],
        "your_submission": None,
        "submissions": copy.deepcopy(SUBMISSIONS) if phase == "judging" else [],
        "sat_out": [],
        "booyah": None,
        "last_round": {
            "round": 3,
            "tshirt": None,
            "void": None,
            "winner": 1,
            "winning_index": 0,
            "slogan": "Ask me about my feelings (don't)",
            "authors": [
                {"index": 0, "seat": 1, "text": "Ask me about my feelings (don't)"},
                {"index": 1, "seat": 2, "text": "Running late since birth"},
            ],
            "random_pick": False,
            "sat_out": [],
            "hot_or_not": {
                "card": 9,
                "points": 1000,
                "booyah": False,
                "verdict": "Astronauts took your T-shirt to space.",
            },
            "points": 1000,
            "booyah": None,
        },
        "recap": [],
        "piles": {
            "slogans": 140,
            "slogan_discard": 6,
            "tshirts": 66,
            "tshirt_discard": 3,
            "hot_or_not": 66,
        },
        "deadline": None,
        "winners": [],
        "end_reason": None,
        "legal": legal,
    }
    view.update(overrides)
    return view


def booyah_view() -> Frame:
    """Seat 0 drew the Booyah card and may keep it or steal from seat 1 or 2."""
    booyah = {
        "seat": 0,
        "card": 69,
        "points": 400,
        "booyah": True,
        "victims": [1, 2],
        "verdict": "BOOYAH! Keep this card for 400 points, or steal a card instead.",
    }
    legal = [
        {"type": "booyah", "choice": "keep"},
        {"type": "booyah", "choice": "steal", "victim": 1},
        {"type": "booyah", "choice": "steal", "victim": 2},
    ]
    view = tshirt_view("booyah", judge=3, booyah=booyah, legal=legal)
    view["last_round"] = dict(
        view["last_round"],
        winner=0,
        slogan="I survived the group chat",
        hot_or_not={k: booyah[k] for k in ("card", "points", "booyah", "verdict")},
    )
    return view


def over_view() -> Frame:
    view = tshirt_view("over", judge=2, winners=[1], end_reason="target")
    view["players"][1]["cards"].append(
        {"card": 5, "points": 600, "verdict": "A banner.", "booyah": False}
    )
    view["players"][1]["score"] = 1600
    view["recap"] = [
        {"round": 1, "tshirt": "A cat in a tiny hat", "void": None, "winner": 1,
         "slogan": "Certified nap technician", "points": 1000},
        {"round": 2, "tshirt": "A toaster with feelings", "void": "no_submissions",
         "winner": None, "slogan": None, "points": 0},
        {"round": 3, "tshirt": "A dancing cactus", "void": None, "winner": 1,
         "slogan": "Ask me about my feelings (don't)", "points": 600},
    ]  # fmt: skip
    return view


def view_frame(view: Frame, events: list[Frame] | None = None) -> Frame:
    return {"t": "view", "version": view.get("version", 0), "view": view, "events": events or []}
