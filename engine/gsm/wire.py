"""The four Game, Set, Match! games on the wire: commands and views (pure data).

What the variants share (the placement command, the card and board fields of
a view) is declared once; each variant's spec adds its own.
"""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, GameSpec, WireField, field

_V = field("v", "int", "the view `version` you chose from", optional=True)
_CARDS = field("cards", "array of int", "the cards you may name (a hint)")
_PLACEMENT = (
    field("card", "int", "the card's id"),
    field("x", "int", "the slot's column (-60 to 60)"),
    field("y", "int", "the slot's row (-60 to 60), y growing downwards"),
    field("turned", "bool", "lay the card turned 180 degrees (default false)", optional=True),
)
_FORM = (
    _CARDS,
    field("turned", "array of bool", "the turns allowed: `[false]`, or `[false, true]`"),
    field(
        "fits",
        "array of map",
        "with option `hints` only: every legal `{card, x, y, turned}` (at most 400)",
        optional=True,
    ),
)
_PLACE_FILL = (
    "Choose `card` from `cards`, a slot `x`, `y` and `turned` from `turned`; with option"
    " `hints`, any entry of `fits` is a legal choice. The other keys are hints and may stay."
)


def _placement(kind: str, doc: str, example: dict[str, object], *extra: WireField) -> CommandSpec:
    template = (*_FORM, *extra)
    fields = (*_PLACEMENT, *(f for f in extra if f.name == "v"))
    return CommandSpec(kind, doc, fields, template, _PLACE_FILL, example)


def _pick_card(kind: str, doc: str) -> CommandSpec:
    return CommandSpec(
        kind,
        doc,
        (field("card", "int", "one of the template's `cards`"),),
        template=(_CARDS,),
        fill="Send `{type, card}` with `card` one of `cards`.",
        example={"type": kind, "card": 12},
    )


def _bare(kind: str, doc: str, *fields: WireField) -> CommandSpec:
    return CommandSpec(kind, doc, fields, example={"type": kind})


_STUCK = _bare("stuck", "Say you are stuck (see the game's rules for what happens then).")

_VIEW = (
    field("game", "str", "the game's id"),
    field("phase", "str", "the game's phase; `over` ends it"),
    field("you", "int or nil", "your seat; nil for spectators"),
    field("version", "int", "the state's version"),
    field("legal", "array of map", "the command templates you may send now"),
    field(
        "legend",
        "map",
        "`{objects, colors}`: `{name, letter, glyph}` and `{name, letter, term}` lists the"
        " cells index into",
    ),
    field("shape", "map", "`{rows, cols}`: cells on a card"),
    field("rules", "map", "the room's rules, defaults filled in"),
    field("winners", "array of int", "the winners once the game is over"),
    field(
        "deadline",
        "float or nil",
        "when the table next acts by itself (host clock); nil when nothing is timed",
    ),
)
_BOARD = field(
    "board",
    "array of map",
    "cards on the table as they lie: `{id, cells, card, x, y, turned, owner}`; `cells` are"
    " rows of `[object, color]` indexes into `legend`",
)
_HAND = field("hand", "array of map", "your cards, upright: `{id, cells}`")
_SCORES = "array of map"
_LAST = field("last", "map or nil", "the last thing that happened, as its event's fields")
_NOTES = (
    "Placement templates are forms: fill in the card, the slot and the turn (docs/rules.md"
    " says which cells a card at a slot covers). Commands without fields are sent as listed."
)

STEALING_HOME = GameSpec(
    game="stealing-home",
    notes=_NOTES,
    commands=(
        _placement(
            "match",
            'Call "Match!" and place one of the two face-up cards, in one command.',
            {"type": "match", "card": 12, "x": 2, "y": 0, "turned": False},
        ),
        _bare("no_fit", "Vote that neither face-up card fits anywhere."),
    ),
    view=(
        *_VIEW,
        _BOARD,
        field("face_up", "array of map", "the two turned cards: `{id, cells}`"),
        field("pile", "int", "cards left to turn"),
        field("out_of_play", "int", "cards out of play"),
        field("round", "int", "the round number"),
        field("tiebreak", "array of int or nil", "the tied seats racing a tiebreaker"),
        field("called", "array of int", "seats whose match call is being settled"),
        field("scores", _SCORES, "per seat: `{seat, cards, locked, voted, away, left}`"),
        field("deadlines", "map", "`{round, tie}`: the round clock and the tie window"),
        _LAST,
    ),
)

SCRAMBLE = GameSpec(
    game="scramble",
    notes=_NOTES,
    commands=(
        _placement(
            "place",
            "Put a card from your hand, or one already on your board, in a free slot of your"
            " own board (the same slot with another `turned` turns it).",
            {"type": "place", "card": 12, "x": 0, "y": 1},
        ),
        _pick_card("take_back", "Take a card from your board back into your hand."),
        _pick_card("turn", "Turn a card on your board 180 degrees."),
        _bare("call_game", "Say your board is done (offered once your hand is empty)."),
        _STUCK,
    ),
    view=(
        *_VIEW,
        _HAND,
        field("board", "array of map", "your own board (boards are private), as `board`"),
        field("game_number", "int", "the game of the match being played"),
        field("stuck", "array of int", "seats that said they are stuck"),
        field("wins_needed", "int", "games to win the match"),
        field("scores", _SCORES, "per seat: `{seat, placed, hand, wins, away, left}`"),
        field("deadlines", "map", "empty: Scramble has no timer"),
        _LAST,
    ),
)

GRIDIRON = GameSpec(
    game="gridiron",
    notes=_NOTES + " `place`, `draw` and `pass` are versioned: their templates carry `v`.",
    commands=(
        _placement(
            "place",
            "On your turn, place a card from your hand (offered when one of them fits).",
            {"type": "place", "card": 12, "x": -1, "y": 0, "turned": True, "v": 9},
            _V,
        ),
        _bare("draw", "On your turn, draw a card (offered when none fits).", _V),
        _bare("pass", "On your turn, pass (offered when none fits and the pile is empty).", _V),
    ),
    view=(
        *_VIEW,
        _BOARD,
        _HAND,
        field("pile", "int", "cards left to draw"),
        field("turn", "int", "whose turn it is"),
        field("passes", "int", "passes in a row so far"),
        field("scores", _SCORES, "per seat: `{seat, hand, away, left}`"),
        field("deadlines", "map", "empty: Gridiron has no timer"),
        _LAST,
    ),
)

FOUR_CORNERS = GameSpec(
    game="four-corners",
    notes=_NOTES,
    commands=(
        _placement(
            "place",
            "Place a card from your hand one slot past either end of your own line.",
            {"type": "place", "card": 12, "x": 1, "y": 0},
            field("slots", "array", "the open slots as `[x, y]` pairs: choose one of them"),
        ),
        _pick_card("take_back", "Take your outermost card at either end of your line back."),
        _STUCK,
    ),
    view=(
        *_VIEW,
        _BOARD,
        _HAND,
        field("axes", "array of map", "per seat: `{seat, axis}`, `h`, `v` or nil before fixed"),
        field("stuck", "array of int", "seats that said they are stuck"),
        field("scores", _SCORES, "per seat: `{seat, hand, away, left}`"),
        field("deadlines", "map", "`{stall}`: when the stall clock runs out"),
        _LAST,
    ),
)
