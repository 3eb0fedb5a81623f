"""What the four Game, Set, Match! games share on the wire (pure data).

The placement command and its form, commands without fields, and the card
and board fields of a view are declared once here; each variant's own
``wire.py`` declares its commands and view from these.
"""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, WireField

VERSION = WireField("v", "int", "the view `version` you chose from", optional=True)
CARDS = WireField("cards", "array of int", "the cards you may name (a hint)")
PLACEMENT = (
    WireField("card", "int", "the card's id"),
    WireField("x", "int", "the slot's column (-60 to 60)"),
    WireField("y", "int", "the slot's row (-60 to 60), y growing downwards"),
    WireField("turned", "bool", "lay the card turned 180 degrees (default false)", optional=True),
)
PLACEMENT_FORM = (
    CARDS,
    WireField("turned", "array of bool", "the turns allowed: `[false]`, or `[false, true]`"),
    WireField(
        "fits",
        "array of map",
        "with option `hints` only: every legal `{card, x, y, turned}` (at most 400)",
        optional=True,
    ),
)
PLACE_FILL = (
    "Choose `card` from `cards`, a slot `x`, `y` and `turned` from `turned`; with option"
    " `hints`, any entry of `fits` is a legal choice. The other keys are hints and may stay."
)


def placement(kind: str, doc: str, example: dict[str, object], *extra: WireField) -> CommandSpec:
    """A card placement (``place``, ``match``), a form; ``extra``: more template keys."""
    template = (*PLACEMENT_FORM, *extra)
    fields = (*PLACEMENT, *(f for f in extra if f.name == "v"))
    return CommandSpec(kind, doc, fields, template, PLACE_FILL, example)


def pick_card(kind: str, doc: str) -> CommandSpec:
    """A command naming one card of the template's ``cards`` (``turn``, ``take_back``)."""
    return CommandSpec(
        kind,
        doc,
        (WireField("card", "int", "one of the template's `cards`"),),
        template=(CARDS,),
        fill="Send `{type, card}` with `card` one of `cards`.",
        example={"type": kind, "card": 12},
    )


def bare(kind: str, doc: str, *fields: WireField) -> CommandSpec:
    """A complete command with no fields besides ``type`` (and an optional ``v``)."""
    return CommandSpec(kind, doc, fields, example={"type": kind})


STUCK = bare("stuck", "Say you are stuck (see the game's rules for what happens then).")

VIEW = (
    WireField("game", "str", "the game's id"),
    WireField("phase", "str", "the game's phase; `over` ends it"),
    WireField("you", "int or nil", "your seat; nil for spectators"),
    WireField("version", "int", "the state's version"),
    WireField("legal", "array of map", "the command templates you may send now"),
    WireField(
        "legend",
        "map",
        "`{objects, colors}`: `{name, letter, glyph}` and `{name, letter, term}` lists the"
        " cells index into",
    ),
    WireField("shape", "map", "`{rows, cols}`: cells on a card"),
    WireField("rules", "map", "the room's rules, defaults filled in"),
    WireField("winners", "array of int", "the winners once the game is over"),
    WireField(
        "deadline",
        "float or nil",
        "when the table next acts by itself (host clock); nil when nothing is timed",
    ),
)
BOARD = WireField(
    "board",
    "array of map",
    "cards on the table as they lie: `{id, cells, card, x, y, turned, owner}`; `cells` are"
    " rows of `[object, color]` indexes into `legend`",
)
HAND = WireField("hand", "array of map", "your cards, upright: `{id, cells}`")
SCORES = "array of map"
LAST = WireField("last", "map or nil", "the last thing that happened, as its event's fields")
NOTES = (
    "Placement templates are forms: fill in the card, the slot and the turn (docs/rules.md"
    " says which cells a card at a slot covers). Commands without fields are sent as listed."
)
