"""A form for a game's rule options, from the welcome's descriptions (bounds are hints: the
host has the final word), and its tick box."""

from __future__ import annotations

from typing import Any

from partyhost.tui.shared.gamelength import TSHIRT_TARGETS
from partyhost.tui.text import literal
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.validation import Integer
from textual.widgets import Checkbox, Input, Label, Select

Option = dict[str, Any]


def describe_value(option: Option, value: Any) -> str:
    """How an option's value reads in the room screen."""
    if value is None:
        return "off"
    if option.get("kind") == "bool":
        return "on" if value else "off"
    return str(value)


class OptionsForm(Vertical):
    """One row per option: a number box, a checkbox or a drop-down."""

    DEFAULT_CSS = """
    OptionsForm { height: auto; }
    OptionsForm .option-row { height: auto; margin-bottom: 0; }
    OptionsForm .option-label { width: 18; padding-right: 1; }
    OptionsForm Input, OptionsForm Select, OptionsForm TickBox { width: 1fr; }
    OptionsForm .option-help { color: $text-muted; width: 1fr; padding-left: 18; }
    """

    def __init__(
        self,
        options: list[Option],
        values: dict[str, Any] | None = None,
        *,
        game: object = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.options = [option for option in options if isinstance(option.get("name"), str)]
        self.initial = values or {}
        self.presets = {"target": TSHIRT_TARGETS} if game == "tshirt" else {}
        """Numbers offered as a choice instead of typed: the T-Shirt Game's targets, each with
        its rough length measured (``partyhost play --option target=N`` takes any other)."""

    def compose(self) -> ComposeResult:
        for option in self.options:
            name = option["name"]
            value = self.initial.get(name, option.get("default"))
            with Horizontal(classes="option-row"):
                yield Label(literal(option.get("label") or name), classes="option-label")
                yield self._field(option, value)
            hint = self._hint(option)
            if hint:
                yield Label(literal(hint), classes="option-help")

    def _field(self, option: Option, value: Any) -> TickBox | Select[str] | Input:
        field_id = f"option-{option['name']}"
        kind = option.get("kind")
        if kind == "bool":
            return TickBox("", bool(value), id=field_id, compact=True)
        if kind == "choice":
            choices = [(literal(choice), str(choice)) for choice in option.get("choices", [])]
            return Select(
                choices,
                value=str(value) if value is not None else Select.NULL,
                allow_blank=False,
                id=field_id,
                compact=True,
            )
        presets = self.presets.get(option["name"])
        if kind == "int" and presets:
            offered = sorted({*presets, *([value] if isinstance(value, int) else [])})
            return Select(
                [(f"{number:,}", str(number)) for number in offered],
                value=str(value) if isinstance(value, int) else str(offered[-1]),
                allow_blank=False,
                id=field_id,
                compact=True,
            )
        validators = [Integer(minimum=option.get("min"), maximum=option.get("max"))]
        return Input(
            "" if value is None else str(value),
            placeholder="off" if option.get("allow_none") else str(option.get("default", "")),
            type="integer",
            validators=validators,
            valid_empty=bool(option.get("allow_none")),
            id=field_id,
            compact=True,
        )

    def _hint(self, option: Option) -> str:
        parts = []
        if self.presets.get(option["name"]):
            return str(option.get("help") or "")
        low, high = option.get("min"), option.get("max")
        if low is not None and high is not None:
            parts.append(f"{low} to {high}")
        elif low is not None:
            parts.append(f"at least {low}")
        if option.get("allow_none"):
            parts.append("blank = off")
        if option.get("help"):
            parts.append(str(option["help"]))
        return "; ".join(parts)

    def values(self) -> dict[str, Any]:
        """The options as typed; a blank number is ``None`` (off) or the default."""
        values: dict[str, Any] = {}
        for option in self.options:
            name = option["name"]
            kind = option.get("kind")
            if kind == "bool":
                values[name] = self.query_one(f"#option-{name}", TickBox).value
            elif kind == "choice":
                chosen = self.query_one(f"#option-{name}", Select).value
                values[name] = option.get("default") if chosen is Select.NULL else chosen
            elif self.presets.get(name):
                chosen = self.query_one(f"#option-{name}", Select).value
                values[name] = option.get("default") if chosen is Select.NULL else int(str(chosen))
            else:
                text = self.query_one(f"#option-{name}", Input).value.strip()
                if not text:
                    values[name] = None if option.get("allow_none") else option.get("default")
                else:
                    try:
                        values[name] = int(text)
                    except ValueError:
                        values[name] = option.get("default")
        return values


class TickBox(Checkbox):
    """A :class:`Checkbox` that reads without colour, ``[x]`` or ``[ ]``: Textual's compact one
    tells its state only by colour, which a 16-colour theme or a colour-blind eye may miss."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    @property
    def _button(self) -> Content:
        mark = "x" if self.value else " "
        return Content.assemble(
            self.BUTTON_LEFT, (mark, self.get_visual_style("toggle--button")), self.BUTTON_RIGHT
        )
