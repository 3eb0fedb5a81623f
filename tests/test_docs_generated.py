"""The generated parts of the wire docs match the code's declarations.

``scripts/gen_docs.py`` writes the message, error-code and game tables of
docs/protocol.md and docs/games-wire.md from the declarations in the code.
If this test fails, a declaration changed (or a document was edited inside
a generated region): run the script and commit what it rewrites.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    path = ROOT / "scripts" / "gen_docs.py"
    spec = importlib.util.spec_from_file_location("gen_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_docs", module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


@pytest.mark.parametrize("name", sorted(GEN.DOCUMENTS))
def test_generated_regions_match_the_code(name: str) -> None:
    path = ROOT / "docs" / name
    text = path.read_text(encoding="utf-8")
    fresh = GEN.regenerate(text, GEN.DOCUMENTS[name](), name)
    assert fresh == text, (
        f"docs/{name} differs from the code's declarations; regenerate it with "
        f"`.venv/bin/{GEN.COMMAND}` and commit the result"
    )


def test_a_document_must_hold_every_region_exactly_once() -> None:
    regions = GEN.DOCUMENTS["protocol.md"]()
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    without_hello = text.replace("<!-- BEGIN GENERATED client hello -->", "", 1)
    with pytest.raises(GEN.RegionError, match="client hello"):
        GEN.regenerate(without_hello, regions, "protocol.md")
    doubled = text + "\n<!-- BEGIN GENERATED error codes -->\n<!-- END GENERATED error codes -->\n"
    with pytest.raises(GEN.RegionError, match="repeated"):
        GEN.regenerate(doubled, regions, "protocol.md")


def test_a_changed_declaration_shows_as_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    from partyhost.net import protocol as p

    monkeypatch.setitem(p.ERROR_CODES, "brand_new", "A code nobody documented.")
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    fresh = GEN.regenerate(text, GEN.DOCUMENTS["protocol.md"](), "protocol.md")
    assert "`brand_new`" in fresh and "`brand_new`" not in text


def test_every_message_and_game_has_its_region() -> None:
    from partyhost.engine.registry import all_games
    from partyhost.net import protocol as p

    protocol = set(GEN.DOCUMENTS["protocol.md"]())
    assert {f"client {kind}" for kind in p.CLIENT_MESSAGES} <= protocol
    assert {f"host {kind}" for kind in p.HOST_MESSAGES} <= protocol
    declared = {f"game {game.id}" for game in all_games() if game.wire is not None}
    assert set(GEN.DOCUMENTS["games-wire.md"]()) == declared
