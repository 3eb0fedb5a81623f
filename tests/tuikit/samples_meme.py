"""Fixed What Do You Meme? views, as ``partyhost.engine.meme`` builds them, for tests and snapshots.

Four players: Ann (seat 0, blue), Bea (1, green, a bot), Carl (2, orange)
and Dev (3, purple, a bot). ``tests/test_tui_meme.py`` checks these keep
exactly the engine's keys.
"""

from __future__ import annotations

import copy
from typing import Any

from tuikit.samples import sample_room, seat_entry

Frame = dict[str, Any]

MEMES: list[Frame] = [
    {
        "meme": 0,
        "caption": "NOPE.",
        "face": "\\\\ .--------. //\n \\\\| O    O |//\n   |   __   |\n   |  (__)  |\n"
        "   '--------'",
    },
    {
        "meme": 1,
        "caption": "FUMING!",
        "face": "  ~   ~~~~   ~\n   .--------.\n  | \\\\    // |\n  |  @    @  |\n"
        "  |  [####]  |\n   '--------'",
    },
    {
        "meme": 2,
        "caption": "WHEEZE!",
        "face": "   .--------.\n  | >_    _< |\n ;|          |;\n  |  \\____/  |\n"
        "  |   \\__/   |\n   '--------'",
    },
    {
        "meme": 3,
        "caption": "SHOOK.",
        "face": "   .--------.\n  | (@)  (@) |\n  |          |\n  |   .--.   |\n"
        "  |   '--'   |\n   '--------'",
    },
    {
        "meme": 4,
        "caption": "NAILED IT!",
        "face": "   .--------.\n  |[==]--[==]|\n  |          |\n  |  '.__.'  | b\n   '--------'",
    },
    {
        "meme": 5,
        "caption": "WHY ME...",
        "face": "   .--------.\n  |  _    _  |\n  |  o    o  |\n  |  '       |\n"
        "  |   .--.   |\n   '--------'",
    },
    {
        "meme": 6,
        "caption": "AWKWARD...",
        "face": "   .--------. o\n  |     o  o |\n  |          |\n  |  ~~~~~~  |\n   '--------'",
    },
]
for _meme in MEMES:
    _meme["keywords"] = []

COLORS = [("blue", "blue"), ("green", "green"), ("orange", "#ff8700"), ("purple", "magenta")]
SCENARIO = {
    "number": 28,
    "text": "You find twenty dollars in the pocket of a jacket you haven't worn since last winter.",
    "custom": False,
}
OPTIONS = {
    "custom_scenarios": False,
    "picking_timer": None,
    "betting_timer": None,
    "away_wait": 0,
    "tokens": 3,
    "max_own_tokens": 2,
}
LAST_TURN: Frame = {
    "turn": 5,
    "round": 2,
    "reactor": 1,
    "scenario": {
        "number": 61,
        "text": "Your ex texts you at 2 a.m.: 'hey... you up?'",
        "custom": False,
    },
    "reaction": 6,
    "guesses": [{"seat": 0, "meme": 6}, {"seat": 2, "meme": 0}, {"seat": 3, "meme": 6}],
    "correct": [0, 3],
    "bets": [
        {"seat": 0, "bets": [{"seat": 0, "amount": 2}, {"seat": 3, "amount": 1}]},
        {"seat": 1, "bets": [{"seat": 3, "amount": 2}, {"seat": 0, "amount": 1}]},
        {"seat": 2, "bets": [{"seat": 2, "amount": 2}]},
        {"seat": 3, "bets": [{"seat": 2, "amount": 3}]},
    ],
    "payouts": [
        {"seat": 0, "won": 3, "lost": 0, "net": 3},
        {"seat": 1, "won": 3, "lost": 0, "net": 3},
        {"seat": 2, "won": 0, "lost": 0, "net": 0},
        {"seat": 3, "won": 0, "lost": 0, "net": 0},
    ],
    "void": None,
}
MONEY = {0: 12, 1: 7, 2: 3, 3: 0}
HISTORY: list[Frame] = [
    {
        "turn": turn,
        "round": 1 + (turn - 1) // 4,
        "reactor": reactor,
        "number": number,
        "reaction": reaction,
        "guesses": [],
        "correct": correct,
        "paid": [{"seat": seat, "net": 1} for seat in correct],
        "void": None,
    }
    for turn, reactor, number, reaction, correct in (
        (1, 1, 4, 0, [2]),
        (2, 2, 50, 3, []),
        (3, 3, 17, 2, [0, 1]),
        (4, 0, 93, 4, [3]),
        (5, 1, 61, 6, [0, 3]),
    )
]


def meme_room(*, you: int | None = 0, status: str = "playing") -> Frame:
    seats = [
        seat_entry(0, "Ann", ready=True),
        seat_entry(1, "Bea", ready=True, bot=True),
        seat_entry(2, "Carl", ready=True),
        seat_entry(3, "Dev", ready=True, bot=True),
    ]
    room = sample_room(you=you, status=status, seats=seats)
    room.update(
        game="meme",
        game_name="What Do You Meme?",
        deck="what-do-you-meme",
        options={},
        rules=dict(OPTIONS, custom_scenarios=False),
        min_players=2,
        max_players=6,
    )
    return room


def _players(reactor: int | None, waiting: list[int], final: bool) -> list[Frame]:
    return [
        {
            "seat": seat,
            "color": name,
            "terminal": terminal,
            "money": MONEY[seat],
            "tokens": 0 if final else 3,
            "away": False,
            "left": False,
            "reactor": seat == reactor,
            "waiting": seat in waiting,
            "last_payout": next(p["net"] for p in LAST_TURN["payouts"] if p["seat"] == seat),
            "winner": False,
        }
        for seat, (name, terminal) in enumerate(COLORS)
    ]


def _guesses(reactor: int, state: str, you: int | None, memes: dict[int, int]) -> list[Frame]:
    return [
        {
            "seat": seat,
            "state": state,
            "meme": memes.get(seat) if state == "revealed" or seat == you else None,
        }
        for seat in range(4)
        if seat != reactor
    ]


def meme_view(
    phase: str = "picking", *, you: int | None = 0, reactor: int = 1, custom: bool = False
) -> Frame:
    """A view in ``phase``, turn 6 of round 2; ``custom``: own scenarios are allowed."""
    final = False
    waiting: list[int] = []
    role = "guesser" if you != reactor else "reactor"
    guessed = {0: 4, 2: 2, 3: 4}
    table: Frame = {
        "reaction": {"seat": reactor, "state": "none", "meme": None},
        "guesses": [],
        "reactor_bets": None,
        "bets": [],
        "bets_revealed": False,
        "unit": "token",
    }
    legal: list[Frame] = []
    scenario: Frame | None = copy.deepcopy(SCENARIO)
    dice: Frame | None = {"tens": 2, "units": 8}
    if phase == "scenario":
        scenario, dice, waiting = None, None, [reactor]
        if you == reactor:
            legal = [{"type": "roll", "turn": 6}]
            if custom:
                legal.append({"type": "write_scenario", "turn": 6, "text": "", "max_length": 280})
    elif phase == "picking":
        waiting = sorted({3} | ({you} if you is not None else set()))
        table["guesses"] = _guesses(reactor, "none", you, {})
        for guess in table["guesses"]:
            if guess["seat"] not in waiting:
                guess["state"] = "face_down"
        if reactor not in waiting:
            table["reaction"]["state"] = "face_down"
        if you in waiting:
            kind = "react" if you == reactor else "guess"
            choices = list(range(7))
            legal = [{"type": kind, "turn": 6, "meme": m, "choices": choices} for m in choices]
    elif phase == "betting_1":
        waiting = [reactor]
        table["guesses"] = _guesses(reactor, "face_down", you, guessed)
        table["reaction"] = {
            "seat": reactor,
            "state": "face_down",
            "meme": 5 if you == reactor else None,
        }
    elif phase == "betting_2":
        waiting = [0, 3]
        table["guesses"] = _guesses(reactor, "revealed", you, guessed)
        table["reaction"]["state"] = "face_down"
        table["reactor_bets"] = [{"seat": 2, "amount": 1}, {"seat": 3, "amount": 2}]
        table["bets"] = [{"seat": 2, "sealed": True, "bets": None}]
    view: Frame = {
        "game": "meme",
        "version": 41,
        "phase": phase,
        "round": 2,
        "rounds": 4,
        "final": final,
        "turn": 6,
        "reactor": reactor,
        "you": you,
        "role": role if you is not None else "spectator",
        "first_player": 1,
        "rolloff": {
            "attempts": [
                [{"seat": s, "value": v} for s, v in enumerate((4, 7, 2, 7))],
                [
                    {"seat": 1, "value": 9},
                    {"seat": 3, "value": 5},
                ],
            ],
            "waiting": [],
        },
        "dice": dice,
        "scenario": scenario,
        "memes": copy.deepcopy(MEMES),
        "players": _players(reactor, waiting, final),
        "table": table,
        "waiting_for": waiting,
        "deadline": None,
        "last_turn": copy.deepcopy(LAST_TURN),
        "history": copy.deepcopy(HISTORY),
        "winners": None,
        "options": dict(OPTIONS, custom_scenarios=custom),
        "legal": legal,
    }
    return view


def bet_template(view: Frame, stage: int, *, cash: bool = False) -> Frame:
    """The engine's bet template for ``view['you']`` at ``stage``."""
    you = view["you"]
    targets = [g["seat"] for g in view["table"]["guesses"]]
    top = MONEY[you] if cash else 3
    own_max = None if cash or stage == 1 else 2
    return {
        "type": "bet",
        "turn": view["turn"],
        "stage": stage,
        "unit": "dollar" if cash else "token",
        "min_total": (1 if stage == 1 else 0),
        "max_total": top,
        "max_own": own_max,
        "targets": [
            {
                "seat": seat,
                "max": min(top, own_max) if seat == you and own_max is not None else top,
                "own": seat == you,
            }
            for seat in targets
        ],
        "bets": [],
    }


def betting_view(stage: int, *, final: bool = False) -> Frame:
    """Ann bets: as the reactor in betting 1, as a guesser in betting 2."""
    if stage == 1:
        view = meme_view("betting_1", you=0, reactor=0)
    else:
        view = meme_view("betting_2", you=0, reactor=1)
    if final:
        view.update(round=4, final=True, turn=14)
        view["table"]["unit"] = "dollar"
        for player in view["players"]:
            player["tokens"] = 0
        if view["table"]["reactor_bets"]:
            view["table"]["reactor_bets"] = [{"seat": 3, "amount": 5}]
    view["legal"] = [bet_template(view, stage, cash=final)]
    return view


def rolloff_view(*, your_roll: bool = False) -> Frame:
    """The roll-off's second attempt: Bea and Dev tied at 7; Bea rolled a 9, Dev still rolls.

    With ``your_roll`` it is the first attempt and Ann (seat 0) has yet to roll.
    """
    view = meme_view("scenario")
    view.update(phase="rolloff", round=1, turn=0, reactor=None, role="player", first_player=None)
    view.update(dice=None, scenario=None, last_turn=None, history=[], legal=[])
    view["rolloff"] = {
        "attempts": [
            [{"seat": s, "value": v} for s, v in enumerate((4, 7, 2, 7))],
            [{"seat": 1, "value": 9}],
        ],
        "waiting": [3],
    }
    view["waiting_for"] = [3]
    if your_roll:
        view["rolloff"] = {
            "attempts": [[{"seat": 1, "value": 7}, {"seat": 2, "value": 2}]],
            "waiting": [0, 3],
        }
        view["waiting_for"] = [0, 3]
        view["legal"] = [{"type": "roll", "turn": 0}]
    view["table"] = dict(view["table"], reaction={"seat": None, "state": "none", "meme": None})
    for player in view["players"]:
        seat = player["seat"]
        player.update(money=0, reactor=False, last_payout=None, waiting=seat in view["waiting_for"])
    return view


def over_view() -> Frame:
    view = meme_view("scenario")
    view.update(phase="over", round=4, final=True, turn=16, winners=[0], waiting_for=[], legal=[])
    view["role"] = "player"
    for player in view["players"]:
        player.update(tokens=0, waiting=False, reactor=False, winner=player["seat"] == 0)
    view["players"][0]["money"] = 126
    view["players"][1]["money"] = 37
    return view


def meme_events(phase: str = "") -> list[Frame]:
    """The last few events of the sample game, as seat 0 saw them."""
    if phase == "rolloff":
        return [
            {"kind": "rolloff_roll", "seat": s, "value": v, "attempt": 1, "auto": None}
            for s, v in enumerate((4, 7, 2, 7))
        ] + [
            {"kind": "rolloff_tie", "seats": [1, 3], "value": 7, "attempt": 2},
            {"kind": "rolloff_roll", "seat": 1, "value": 9, "attempt": 2, "auto": None},
        ]
    return [
        {"kind": "bets_revealed", "bets": []},
        {"kind": "reaction_revealed", "reactor": 1, "meme": 6, "correct": [0, 3]},
        {"kind": "turn_over", **copy.deepcopy(LAST_TURN)},
        {"kind": "turn_started", "turn": 6, "round": 2, "reactor": 1, "position": 1, "at": 0.0},
        {
            "kind": "scenario_rolled",
            "reactor": 1,
            "tens": 2,
            "units": 8,
            "number": 28,
            "text": SCENARIO["text"],
            "auto": None,
        },
        {"kind": "guess_placed", "seat": 2},
    ]
