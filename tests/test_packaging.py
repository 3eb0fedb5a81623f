"""The install layout: every source folder ships, under the partyhost namespace."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {
    "partyhost": "app",
    "partyhost.engine": "engine",
    "partyhost.net": "net",
    "partyhost.tui": "tui",
    "partyhost.decks": "decks",
}


def _declared_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["setuptools"]["packages"])


def _package_folders() -> set[str]:
    found: set[str] = set()
    for package, folder in MAPPED.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            relative = init.parent.relative_to(base)
            parts = [] if relative == Path(".") else list(relative.parts)
            found.add(".".join([package, *parts]))
    return found


def test_every_package_folder_is_declared_in_pyproject() -> None:
    assert _package_folders() == _declared_packages()


def test_package_dir_maps_the_top_level_folders() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["package-dir"] == MAPPED


def test_shipped_decks_are_package_data() -> None:
    import partyhost.decks.catalog as catalog

    shipped = {path.name for path in catalog.shipped_decks_dir().glob("*.yaml")}
    assert "the-t-shirt-game.yaml" in shipped
