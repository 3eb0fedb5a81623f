"""No screen or widget of ours reuses a private attribute name of Textual's.

``RoundResultScreen`` once kept its own ``_closed`` flag. Textual's message
pump reads ``_closed`` to mean "this pump has finished" and drops every
message posted to it: the screen, closed from outside, never received the
message that removes it, and the whole app waited for it forever.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import textwrap

import partyhost.tui
from textual.message_pump import MessagePump


@functools.cache
def assigned_private_names(cls: type) -> frozenset[str]:
    """The ``self._name`` attributes a class's own methods assign."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if (
                    isinstance(part, ast.Attribute)
                    and isinstance(part.value, ast.Name)
                    and part.value.id == "self"
                    and part.attr.startswith("_")
                    and not part.attr.startswith("__")
                ):
                    names.add(part.attr)
    return frozenset(names)


def our_textual_classes() -> list[type]:
    """Every class in ``partyhost.tui`` that is a Textual message pump (app, screen, widget)."""
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(partyhost.tui.__path__, "partyhost.tui."):
        module = importlib.import_module(module_info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == module.__name__ and issubclass(value, MessagePump):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def textual_private_names(cls: type) -> set[str]:
    """What the Textual classes ``cls`` inherits from assign as ``self._name``."""
    names: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.startswith("textual."):
            names |= assigned_private_names(base)
    return names


def test_the_check_knows_textuals_own_names() -> None:
    from textual.screen import Screen

    assert {"_closed", "_closing", "_task", "_parent"} <= textual_private_names(Screen)


def test_no_class_of_ours_shadows_textuals_private_attributes() -> None:
    classes = our_textual_classes()
    assert len(classes) > 40  # every screen, dialog and widget was found
    clashes = {
        f"{cls.__module__}.{cls.__qualname__}": sorted(
            assigned_private_names(cls) & textual_private_names(cls)
        )
        for cls in classes
    }
    assert {name: found for name, found in clashes.items() if found} == {}
