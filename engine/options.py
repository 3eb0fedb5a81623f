"""Room options a game offers: kind, default and bounds, and how chosen values are checked.

Options are part of the game contract (``Game.options``); the host shows
them in the create-room dialog and checks a room's choices with
:func:`resolve_rules` before any game is set up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from partyhost.engine.errors import IllegalMove


@dataclass(frozen=True)
class RuleOption:
    """One room setting a game offers, with its default and bounds."""

    name: str
    label: str
    kind: Literal["int", "bool", "choice"]
    default: int | bool | str | None
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    allow_none: bool = False
    """For timers: ``None`` (shown as "off") is allowed besides numbers."""

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "min": self.minimum,
            "max": self.maximum,
            "choices": list(self.choices),
            "allow_none": self.allow_none,
        }

    def check(self, value: Any) -> int | bool | str | None:
        """Return ``value`` if it suits this option, else raise :class:`IllegalMove`."""
        if value is None and self.allow_none:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise IllegalMove("bad_option", f"Option {self.name!r} must be true or false.")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove("bad_option", f"Option {self.name!r} must be a whole number.")
            if self.minimum is not None and value < self.minimum:
                raise IllegalMove(
                    "bad_option", f"Option {self.name!r} must be at least {self.minimum}."
                )
            if self.maximum is not None and value > self.maximum:
                raise IllegalMove(
                    "bad_option", f"Option {self.name!r} must be at most {self.maximum}."
                )
            return value
        if value not in self.choices:
            allowed = ", ".join(self.choices)
            raise IllegalMove("bad_option", f"Option {self.name!r} must be one of: {allowed}.")
        return str(value)


RESULT_PAUSES: dict[str, float] = {
    "until all press a key": 30.0,
    "5 seconds": 5.0,
    "10 seconds": 10.0,
    "no pause": 0.0,
}
"""How long the table stops after a round for everyone to read its result, by the
:data:`ROUND_RESULTS` choice: at most this many seconds; in the first, a key from every
person at the table ends it sooner."""

ROUND_RESULTS = RuleOption(
    "round_results",
    "Round results stay",
    "choice",
    "until all press a key",
    help="After each round the table stops so everyone can read what won and why: until "
    "every person has pressed a key (30 s at most), a few seconds, or not at all. The "
    "game's timers wait too.",
    choices=tuple(RESULT_PAUSES),
)
"""The room option of every game with rounds (see :meth:`Game.round_over`). The rules
never read it: the host holds its bots while the table reads."""


def resolve_rules(options: Sequence[RuleOption], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown names and bad values are refused."""
    by_name = {option.name: option for option in options}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise IllegalMove("bad_option", f"Unknown option(s): {', '.join(map(str, unknown))}.")
    rules: dict[str, Any] = {option.name: option.default for option in options}
    for name, value in given.items():
        rules[name] = by_name[name].check(value)
    return rules
