"""Every shipped game keeps to its wire declaration (partyhost.engine.wire).

Seeded games of each game are played by its bots through the engine. At
every step, every seat's view and the spectator's must have exactly the
declared keys with values of the declared types; every ``legal`` template
must be a declared command with the declared keys; a complete template must
be accepted exactly as it is, and a form filled as its declaration says must
be accepted too; every command the bots sent and the game accepted must fit
the declared command. docs/games-wire.md is generated from the same
declarations, so what these tests hold is what the page says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from nethelpers import counting
from partyhost.engine.core import Command, Game, IllegalMove, apply
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.wire import CommandSpec, GameSpec, WireField, keys
from wiregames import SHIPPED, Step, play

TABLES: dict[str, list[tuple[int, dict[str, Any], int]]] = {
    "tshirt": [
        (3, {"target": 500}, 11),
        (4, {"target": 5000, "submit_timer": 10, "judge_timer": 10}, 14),
    ],
    "meme": [(2, {}, 11), (3, {"custom_scenarios": True, "picking_timer": 10}, 12)],
    "stealing-home": [(2, {"hints": True}, 11), (3, {"round_seconds": 5, "rotate": False}, 12)],
    "scramble": [(2, {}, 11), (3, {"rotate": False}, 12)],
    "gridiron": [(2, {"hints": True}, 11), (3, {}, 5), (3, {"rotate": False}, 12)],
    "four-corners": [(2, {"hints": True}, 11), (2, {"stall_seconds": 30}, 12)],
}
"""Tables per game: (players, rules, seed), chosen so every command type comes up."""


_SIMPLE: dict[str, Any] = {
    "int": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "float": lambda value: isinstance(value, float),
    "str": lambda value: isinstance(value, str),
    "bool": lambda value: isinstance(value, bool),
    "nil": lambda value: value is None,
    "map": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "any": lambda value: True,
}


def fits(label: str, value: Any) -> bool:
    """Whether ``value`` has a type ``label`` allows; labels are written as the protocol
    document writes them (``"int or nil"``, ``"array of map"``)."""
    for choice in label.split(" or "):
        words = choice.split()
        if words[0] not in _SIMPLE:
            raise ValueError(f"unknown type {choice!r} in {label!r}")
        if not _SIMPLE[words[0]](value):
            continue
        if words[0] == "array" and len(words) == 3:
            if words[1] != "of" or words[2] not in _SIMPLE:
                raise ValueError(f"unknown type {choice!r} in {label!r}")
            if not all(_SIMPLE[words[2]](item) for item in value):
                continue
        elif len(words) != 1:
            raise ValueError(f"unknown type {choice!r} in {label!r}")
        return True
    return False


def _spec(game_id: str) -> GameSpec:
    spec = get_game(game_id).wire
    assert spec is not None, f"{game_id} declares no wire spec (WIRE in its package's wire.py)"
    return spec


def _steps(game_id: str) -> Iterator[Step]:
    for players, rules, seed in TABLES[game_id]:
        for step in play(game_id, players, rules, seed):
            yield step
            if game_id == "gridiron" and step.state.phase == "turns" and step.state.pile:
                # Passing needs an empty pile and no fit: rare in play, so the same table
                # with the pile used up stands in for it.
                empty = dataclasses.replace(step.state, pile=())
                yield Step(empty, step.now, None, None)


def _fields_problems(
    where: str, value: Mapping[str, Any], fields: tuple[WireField, ...]
) -> list[str]:
    declared = {f.name: f for f in fields}
    problems = [f"{where}: undeclared key {key!r}" for key in value if key not in declared]
    for name, found in declared.items():
        if name not in value:
            if not found.optional:
                problems.append(f"{where}: missing {name!r}")
        elif not fits(found.type, value[name]):
            problems.append(f"{where}.{name} = {value[name]!r} is not {found.type}")
    return problems


def _seats(state: Any) -> list[int]:
    seats = getattr(state, "seats", None)
    return list(seats) if seats is not None else [player.seat for player in state.players]


def _filled(spec: CommandSpec, template: Command) -> Command | None:
    """A form filled as its declaration says, when the template itself names a choice."""
    if spec.complete:
        return dict(template)
    if template.get("fits"):
        return {**template, **template["fits"][0]}
    if spec.type in ("take_back", "turn"):
        return {**template, "card": template["cards"][0]}
    if spec.type == "bet":
        targets = template["targets"]
        if template["min_total"] == 0 or not targets:
            return dict(template)
        return {**template, "bets": [{"seat": targets[0]["seat"], "amount": 1}]}
    if spec.type == "write_scenario":
        return {**template, "text": "When the lights go out"}
    return None


def _check_step(game: Game, spec: GameSpec, step: Step, seen: set[str]) -> None:
    state = step.state
    now, due = step.now, game.deadline(state)
    if due is not None and due <= now:
        now = due - 0.001  # the templates were sent before the timer ran out
    for seat in [*_seats(state), None]:
        view = game.view(state, seat)
        where = f"{game.id} seat {seat} phase {view.get('phase')}"
        assert _fields_problems(where, view, spec.view) == []
        for template in view["legal"]:
            kind = template["type"]
            command = spec.command(kind)
            assert command is not None, f"{where}: undeclared command {kind!r}"
            seen.add(kind)
            body = {key: value for key, value in template.items() if key != "type"}
            assert _fields_problems(f"{where} {kind}", body, command.template_fields) == []
            assert ("v" in template) == (kind in game.versioned_commands), template
            if "v" in template:
                assert template["v"] == state.version
            assert seat is not None
            filled = _filled(command, template)
            if filled is not None:
                try:
                    apply(game, state, seat, filled, now)
                except IllegalMove as refused:
                    raise AssertionError(f"{where}: {filled} refused: {refused}") from None
    if step.command is not None:
        kind = step.command["type"]
        command = spec.command(kind)
        assert command is not None, f"{game.id}: a bot sent undeclared {kind!r}"
        body = {key: value for key, value in step.command.items() if key != "type"}
        assert _fields_problems(f"{game.id} bot {kind}", body, command.fields) == []


@pytest.mark.parametrize("game_id", SHIPPED)
def test_views_templates_and_commands_keep_to_the_declaration(game_id: str) -> None:
    game, spec = get_game(game_id), _spec(game_id)
    seen: set[str] = set()
    for step in _steps(game_id):
        _check_step(game, spec, step, seen)
    assert seen == {command.type for command in spec.commands}, "declared but never offered"


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_declared_example_is_a_well_formed_command(game_id: str) -> None:
    game, spec = get_game(game_id), _spec(game_id)
    for command in spec.commands:
        assert command.example is not None and command.example["type"] == command.type
        body = {key: value for key, value in command.example.items() if key != "type"}
        assert _fields_problems(command.type, body, command.fields) == []
        names = {f.name for f in command.fields}
        assert ("v" in names) == (command.type in game.versioned_commands), command.type


def test_every_shipped_game_is_declared_and_only_those() -> None:
    shipped = {
        game.id for game in all_games() if game.setup.__module__.startswith("partyhost.engine")
    }
    assert shipped == set(SHIPPED)
    assert all(get_game(game_id).wire is not None for game_id in SHIPPED)
    assert counting().wire is None


@pytest.mark.parametrize(
    ("label", "value", "expected"),
    [
        ("int", 3, True),
        ("int", True, False),
        ("float or nil", None, True),
        ("float or nil", 3, False),
        ("array of int or nil", [1, 2], True),
        ("array of int or nil", ["1"], False),
        ("map or nil", {}, True),
    ],
)
def test_type_labels_read_as_the_docs_write_them(label: str, value: Any, expected: bool) -> None:
    assert fits(label, value) is expected


def test_a_fields_table_reads_one_field_a_line_with_optional_names_and_wrapped_meanings() -> None:
    read = keys("""
        card | int | the card's id
        turned? | bool | lay the card turned; a meaning may hold colons: `{x, y}`
            and go on over lines
    """)
    assert read == (
        WireField("card", "int", "the card's id"),
        WireField(
            "turned",
            "bool",
            "lay the card turned; a meaning may hold colons: `{x, y}` and go on over lines",
            optional=True,
        ),
    )
