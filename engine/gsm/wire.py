"""What the four Game, Set, Match! games share on the wire: placements, bare commands, view keys."""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, WireField, keys

VERSION, CARDS = keys("""
    v? | int | the view `version` you chose from
    cards | array of int | the cards you may name (a hint)
""")
PLACEMENT = keys("""
    card | int | the card's id
    x | int | the slot's column (-60 to 60)
    y | int | the slot's row (-60 to 60), y growing downwards
    turned? | bool | lay the card turned 180 degrees (default false)
""")
PLACEMENT_FORM = (
    CARDS,
    *keys("""
    turned | array of bool | the turns allowed: `[false]`, or `[false, true]`
    fits? | array of map | with option `hints` only: every legal `{card, x, y, turned}` (at most
        400)
    """),
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

VIEW = keys("""
    game | str | the game's id
    phase | str | the game's phase; `over` ends it
    you | int or nil | your seat; nil for spectators
    version | int | the state's version
    legal | array of map | the command templates you may send now
    legend | map | `{objects, colors}`: `{name, letter, glyph}` and `{name, letter, term}` lists the
        cells index into
    shape | map | `{rows, cols}`: cells on a card
    rules | map | the room's rules, defaults filled in
    winners | array of int | the winners once the game is over
    deadline | float or nil | when the table next acts by itself (host clock); nil when nothing is
        timed
""")
BOARD, HAND, LAST = keys("""
    board | array of map | cards on the table as they lie: `{id, cells, card, x, y, turned, owner}`;
        `cells` are rows of `[object, color]` indexes into `legend`
    hand | array of map | your cards, upright: `{id, cells}`
    last | map or nil | the last thing that happened, as its event's fields
""")


def table_keys(*own: WireField) -> tuple[WireField, ...]:
    """A variant's view: the keys every variant's has, its ``own``, then ``last``."""
    return (*VIEW, *own, LAST)


NOTES = (
    "Placement templates are forms: fill in the card, the slot and the turn (docs/rules.md"
    " says which cells a card at a slot covers). Commands without fields are sent as listed."
)
