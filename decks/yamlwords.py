"""PyYAML's syntax errors, told in plain words at the line where the mistake is.

PyYAML says where its parser got lost, often lines after the mistake (an unclosed quote is
noticed at the next quote); :func:`explain` recognises the common mistakes around its marks
and says what to fix where, PyYAML's own words kept as a second line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

_PLAIN_KEY = re.compile(r"[^\s\"'#\[\]{}&*!|>%@`-][^:#]*?:(?:\s|$)")
"""A ``key:`` written without quotes at the start of a line's content."""
_LOOKBACK_LINES = 200
"""How far above PyYAML's mark a quote that never closed is looked for."""


@dataclass(frozen=True)
class PlainError:
    """A syntax mistake in plain words, at a 1-based line and column."""

    line: int
    column: int
    words: str


def yaml_words(exc: yaml.YAMLError) -> str:
    """PyYAML's own description of ``exc``, on one line."""
    if isinstance(exc, yaml.MarkedYAMLError):
        return " ".join(part for part in (exc.context, exc.problem) if part)
    return str(exc).replace("\n", " ")


def explain(exc: yaml.MarkedYAMLError, text: str) -> PlainError:
    """Where the mistake behind ``exc`` is in ``text``, and how to fix it, in plain words."""
    return _Explainer(exc, text).explain()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content_start(line: str) -> int:
    """Where a line's content starts after its indent and any ``- `` list dashes."""
    at = _indent(line)
    while line.startswith("-", at) and (at + 1 == len(line) or line[at + 1] in " \t"):
        at += 1
        while at < len(line) and line[at] == " ":
            at += 1
    return at


def _value_start(line: str) -> int:
    """Where the value on a line starts: after its indent, ``- `` dashes and a ``key: ``."""
    at = _content_start(line)
    key = _PLAIN_KEY.match(line, at)
    if key is None:
        return at
    at = key.end()
    while at < len(line) and line[at] == " ":
        at += 1
    return at


def _closing_quote(line: str, start: int) -> int | None:
    """The index of the quote closing the one at ``start``, or None when it stays open."""
    quote = line[start]
    at = start + 1
    while at < len(line):
        char = line[at]
        if quote == '"' and char == "\\":
            at += 2
            continue
        if char == quote:
            if quote == "'" and line.startswith("'", at + 1):  # '' is a quote inside '...'
                at += 2
                continue
            return at
        at += 1
    return None


class _Explainer:
    """One PyYAML error and the text it came from."""

    def __init__(self, exc: yaml.MarkedYAMLError, text: str) -> None:
        self.context = exc.context or ""
        self.problem = exc.problem or ""
        self.lines = [line.rstrip("\r") for line in text.split("\n")]
        mark = exc.problem_mark or exc.context_mark
        self.line, self.column = (mark.line, mark.column) if mark else (0, 0)
        context_mark = exc.context_mark or mark
        self.context_line, self.context_column = (
            (context_mark.line, context_mark.column) if context_mark else (0, 0)
        )

    def text_of(self, line: int) -> str:
        return self.lines[line] if 0 <= line < len(self.lines) else ""

    def at(self, line: int, column: int, words: str) -> PlainError:
        return PlainError(line + 1, column + 1, words)

    def explain(self) -> PlainError:
        for finder in (
            self._tab,
            self._unclosed_quote,
            self._text_after_quote,
            self._mapping_value,
            self._missing_dash,
            self._misaligned_key,
            self._flow,
            self._block_scalar,
            self._special_start,
            self._several_documents,
        ):
            found = finder()
            if found is not None:
                return found
        return self.at(
            self.line,
            self.column,
            "YAML cannot read this line: check its quotes, its indentation and the line above",
        )

    def _tab(self) -> PlainError | None:
        """A tab where an indent or a token should be."""
        line = self.text_of(self.line)
        lead = len(line) - len(line.lstrip(" \t-"))
        if "\t" in line[:lead]:
            column = line.index("\t")
        elif line[self.column : self.column + 1] == "\t":  # a tab where a token should start
            column = self.column
        else:
            return None
        return self.at(self.line, column, "a tab; indent with spaces")

    def _unclosed_quote(self) -> PlainError | None:
        """A value that opens a quote and never closes it on its line."""
        if self.context == "while scanning a quoted scalar":
            return self.at(self.context_line, self.context_column, _UNCLOSED)
        # The quote that closed the runaway text sits before the mark on its line.
        before = self.text_of(self.line)[: self.column]
        for quote in "\"'":
            if quote not in before:
                continue
            first = max(0, self.line - _LOOKBACK_LINES)
            for number in range(self.line - 1, first - 1, -1):
                line = self.text_of(number)
                if quote not in line or line.lstrip().startswith("#"):
                    continue
                value = _value_start(line)  # a quote opening the value, never closed
                if line[value : value + 1] == quote and _closing_quote(line, value) is None:
                    return self.at(number, value, _UNCLOSED)
                break
        return None

    def _text_after_quote(self) -> PlainError | None:
        """Text written after a value's closing quote: ``- "Nice" shirt``."""
        line = self.text_of(self.line)
        start = _value_start(line)
        if start < self.column <= len(line) and line[start : start + 1] in ("'", '"'):
            closing = _closing_quote(line, start)
            if closing is not None and closing < self.column:
                return self.at(
                    self.line,
                    self.column,
                    "text goes on after the closing quote; put all of the text inside the quotes",
                )
        return None

    def _mapping_value(self) -> PlainError | None:
        """A ``: `` PyYAML did not expect: inside unquoted text, or a key indented too far."""
        if "mapping values are not allowed" not in self.problem:
            return None
        line = self.text_of(self.line)
        start = _content_start(line)
        key = _PLAIN_KEY.match(line, start)
        if key is not None and key.end() <= self.column:
            value = _value_start(line)
            return self.at(self.line, value, _COLON_INSIDE)
        under = self._under_indented_above()
        if under is not None:
            return under
        above = self._line_above(self.line)
        if above is not None and _indent(line) > _indent(self.text_of(above)):
            name = line[start : self.column].strip()
            return self.at(
                self.line,
                start,
                f"`{name}:` is indented more than the lines above it; line it up with"
                " the keys it belongs with",
            )
        return self.at(self.line, start, _COLON_INSIDE)

    def _missing_dash(self) -> PlainError | None:
        """A list item written without its ``- ``."""
        if self.context == "while scanning a simple key":
            number, column = self.context_line, self.context_column
        elif "expected '-' indicator" in self.problem:
            number, column = self.line, self.column
        else:
            return None
        line = self.text_of(number)
        dash_column = self._list_indent(number)
        if dash_column is not None and _indent(line) == dash_column:
            return self.at(number, _indent(line), "a list item needs a `- ` in front")
        if dash_column is not None and not line.lstrip().startswith("-"):
            return self.at(number, _indent(line), _INDENTED_DIFFERENTLY)
        if dash_column is not None:
            return self.at(number, _indent(line), _off_the_list(dash_column))
        return self.at(
            number,
            column,
            "this line is neither a `key: value` nor a `- ` list item; if it is text that"
            " goes on from the line above, put that text in quotes",
        )

    def _misaligned_key(self) -> PlainError | None:
        """A line that does not line up with the keys of the mapping it is in."""
        if "expected key" not in self.problem:
            return None
        line = self.text_of(self.line)
        under = self._under_indented_above()
        if under is not None:
            return under
        dash_column = self._list_indent(self.line)
        above = self._line_above(self.line)
        above_is_key = above is not None and _content_start(self.text_of(above)) == _indent(
            self.text_of(above)
        )
        dashed = line.lstrip().startswith("-") and _content_start(line) > _indent(line)
        if dashed and above_is_key and _PLAIN_KEY.match(line, _content_start(line)):
            return self.at(
                self.line,
                _indent(line),
                "this line starts with `- `, but the lines above it are `key: value` lines;"
                " remove the `- `",
            )
        if line.lstrip().startswith("-") and dash_column is not None:
            return self.at(self.line, _indent(line), _off_the_list(dash_column))
        if line.lstrip().startswith("- "):
            return self.at(
                self.line,
                _indent(line),
                "a list item here needs a `key:` above it, indented less than the `- `",
            )
        return self.at(self.line, _indent(line), _INDENTED_DIFFERENTLY)

    def _flow(self) -> PlainError | None:
        """A ``[`` or ``{`` that never closes."""
        if "flow" not in self.context:
            return None
        opener = self._last_unclosed_bracket()
        if opener is None:
            return None
        number, column, char = opener
        closer = "]" if char == "[" else "}"
        return self.at(
            number,
            column,
            f"this `{char}` never closes with `{closer}`; close it, or put the text in quotes",
        )

    def _block_scalar(self) -> PlainError | None:
        """A ``|`` or ``>`` YAML took for the start of a drawing (a block of lines)."""
        if "block scalar" not in self.context:
            return None
        line = self.text_of(self.context_line)
        char = line[self.context_column : self.context_column + 1]
        if _content_start(line) != self.context_column:
            return self.at(
                self.context_line,
                self.context_column,
                f"after `{char}` nothing may follow on its line (a number of spaces, like"
                f" `{char}2`, at most); the lines of the text start on the next line",
            )
        above = self._line_above(self.context_line)
        if above is not None and _indent(self.text_of(above)) > _indent(line):
            return self.at(
                self.context_line,
                _indent(line),
                "this line is indented less than the drawing above it; indent it like"
                " the drawing's other lines",
            )
        return self.at(self.context_line, self.context_column, _reserved(char))

    def _special_start(self) -> PlainError | None:
        """Text starting with a character YAML reserves (``@``, a backtick, ``*``, ``&``, ``%``)."""
        if "alias" in self.context or "anchor" in self.context or "directive" in self.context:
            number, column = self.context_line, self.context_column
        elif "cannot start any token" in self.problem:
            number, column = self.line, self.column
        else:
            return None
        return self.at(number, column, _reserved(self.text_of(number)[column : column + 1]))

    def _several_documents(self) -> PlainError | None:
        if "another document" not in self.problem:
            return None
        return self.at(
            self.line,
            self.column,
            "a `---` line starts a second deck; a deck file holds one: remove the line",
        )

    def _under_indented_above(self) -> PlainError | None:
        """The line above the mark when it alone sits further left than its neighbours.

        PyYAML notices such a line only at the next one, which goes back to the
        indent the line should have had.
        """
        above = self._line_above(self.line)
        if above is None:
            return None
        before = self._line_above(above)
        line, above_line = self.text_of(self.line), self.text_of(above)
        if before is None or above_line.rstrip().endswith(":"):  # a key over a nested block
            return None
        if _content_start(above_line) < _indent(line) <= _indent(self.text_of(before)):
            return self.at(
                above,
                _indent(above_line),
                "this line is indented less than the lines around it; line it up with them",
            )
        return None

    def _line_above(self, number: int) -> int | None:
        """The nearest line above with content (not blank, not only a comment)."""
        for above in range(number - 1, -1, -1):
            stripped = self.text_of(above).strip()
            if stripped and not stripped.startswith("#"):
                return above
        return None

    def _list_indent(self, number: int) -> int | None:
        """The column of the ``- `` of the list item just above ``number``, if any."""
        above = self._line_above(number)
        while above is not None:
            line = self.text_of(above)
            if line.lstrip().startswith("-"):
                return _indent(line)
            if _indent(line) <= _indent(self.text_of(number)):  # a key above owns this line
                return None
            above = self._line_above(above)
        return None

    def _last_unclosed_bracket(self) -> tuple[int, int, str] | None:
        """The last ``[`` or ``{`` before the mark that no bracket closes (outside quotes)."""
        stack: list[tuple[int, int, str]] = []
        for number in range(0, min(self.line, len(self.lines) - 1) + 1):
            line = self.text_of(number)
            end = self.column if number == self.line else len(line)
            value = _value_start(line)
            at = 0
            while at < end:
                char = line[at]
                if char == "#" and (at == 0 or line[at - 1] in " \t"):
                    break
                if char in "\"'" and at == value:
                    closing = _closing_quote(line, at)
                    at = len(line) if closing is None else closing + 1
                    continue
                if char in "[{":
                    stack.append((number, at, char))
                elif char in "]}" and stack:
                    stack.pop()
                at += 1
        return stack[-1] if stack else None


_UNCLOSED = "this text starts with a quote that never closes; add the closing quote"
_INDENTED_DIFFERENTLY = (
    "this line is indented differently from the lines above it; line it up with the keys it"
    " belongs with"
)
_COLON_INSIDE = "this text has `: ` inside; put the text in quotes"


def _off_the_list(dash_column: int) -> str:
    return (
        "this line does not line up with the list above it: its `- ` items start"
        f" at column {dash_column + 1}"
    )


def _reserved(char: str) -> str:
    shown = "a backtick" if char == "`" else f"`{char}`"
    return f"text cannot start with {shown}; put the text in quotes"
