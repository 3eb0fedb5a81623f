"""The install layout: every source folder ships, under the partyhost namespace.

The wheel is built as ``make dist`` builds it and installed in a fresh virtualenv, where
the commands a friend runs must work from outside the checkout.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import tarfile
import threading
import tomllib
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from partyhost import __version__
from rawwire import welcome_of
from wiregames import SHIPPED

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {
    "partyhost": "app",
    "partyhost.engine": "engine",
    "partyhost.net": "net",
    "partyhost.tui": "tui",
    "partyhost.decks": "decks",
}
LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")
# The games the package ships, by id as `partyhost games` sorts them. Not the registry's list:
# other tests in the same worker register test games into it.
SHIPPED_GAMES = sorted(SHIPPED)
WHERE = "import partyhost, pathlib; print(pathlib.Path(partyhost.__file__).resolve())"


def _declared_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
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
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["package-dir"] == MAPPED


def test_shipped_decks_are_package_data() -> None:
    import partyhost.decks.catalog as catalog

    shipped = {path.name for path in catalog.shipped_decks_dir().glob("*.yaml")}
    assert "the-t-shirt-game.yaml" in shipped


# --- the wheel, installed as a friend installs it ---------------------------------------------

OFFLINE_SIGNS = (
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "ConnectTimeoutError",
)
"""What pip prints when no package index answers (and only then may the install test skip)."""
SCREENSHOT_SECONDS = 8
"""How long ``play`` runs headless before Textual saves the screen and quits."""


def _run(command: Sequence[str], cwd: Path, env: dict[str, str], timeout: float = 60) -> str:
    """What ``command`` printed; a non-zero exit fails the test with that output."""
    done = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done.stdout


def _build(out: Path) -> tuple[Path, Path]:
    """The sdist and the wheel built from it, as ``make dist`` builds them."""
    build = [sys.executable, "-m", "build", "--quiet", "--no-isolation", "--outdir", str(out)]
    _run([*build, str(ROOT)], cwd=ROOT, env=dict(os.environ), timeout=120)
    (sdist,) = out.glob(f"partyhost-{__version__}.tar.gz")
    (wheel,) = out.glob(f"partyhost-{__version__}-py3-none-any.whl")
    return sdist, wheel


def _shipped_files() -> set[str]:
    """Every file of the checkout's package folders, named as it lies in an install."""
    found: set[str] = set()
    for package, folder in MAPPED.items():
        base = ROOT / folder
        for path in base.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                parts = [*package.split("."), *path.relative_to(base).parts]
                found.add("/".join(parts))
    return found


def _friends_environment(home: Path) -> dict[str, str]:
    """This environment without the checkout's virtualenv, and with private partyhost folders."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")
    }
    for kind in ("CONFIG", "DATA", "STATE"):
        env[f"PARTYHOST_{kind}_DIR"] = str(home / kind.lower())
    return env


def _install(wheel: Path, venv: Path, env: dict[str, str]) -> Path:
    """A fresh virtualenv holding ``wheel`` and what it depends on; its ``partyhost`` command.

    This pip installs into it (``--python``): a pip of its own would take as long again.
    """
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent, env=env)
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    pip = [sys.executable, "-m", "pip", "--python", str(scripts / "python"), "install"]
    done = subprocess.run(
        [*pip, "--quiet", "--no-compile", "--disable-pip-version-check", str(wheel)],
        cwd=venv.parent,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
        check=False,
    )
    printed = done.stdout + done.stderr
    if done.returncode != 0 and any(sign in printed for sign in OFFLINE_SIGNS):
        pytest.skip(f"no package index reachable for partyhost's dependencies:\n{printed}")
    assert done.returncode == 0, printed
    return scripts / "partyhost"


def _screen_text(svg: Path) -> str:
    """The characters of a Textual screenshot, one run of text after another."""
    runs = re.findall(r"<text[^>]*>(.*?)</text>", svg.read_text(encoding="utf-8"))
    return html.unescape("".join(runs)).replace("\xa0", " ")


def _serve_answers_then_quits(partyhost: Path, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """``partyhost serve`` on loopback: its welcome to a hello, then ``quit`` on its console."""
    command = [str(partyhost), "serve", "--host", "127.0.0.1", "--port", "0", "--no-discovery"]
    host = subprocess.Popen(
        [*command, "--data", str(cwd / "host")],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )
    watchdog = threading.Timer(60, host.kill)
    watchdog.start()
    try:
        assert host.stdout is not None and host.stdin is not None
        printed: list[str] = []
        while not (found := LISTENING.search(printed[-1] if printed else "")):
            line = host.stdout.readline()
            assert line, f"serve ended before listening:\n{''.join(printed)}"
            printed.append(line)
        welcome = welcome_of(int(found.group(1)))
        rest, _ = host.communicate("quit\n", timeout=30)
        assert host.returncode == 0, "".join(printed) + rest
    finally:
        watchdog.cancel()
        if host.poll() is None:
            host.kill()
            host.wait()
    return welcome


@pytest.mark.timeout(300)
def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    """What a friend does with the host's wheel: install it in a new virtualenv, then play."""
    sdist, wheel = _build(tmp_path / "dist")
    with zipfile.ZipFile(wheel) as archive:
        assert _shipped_files() <= set(archive.namelist())
    with tarfile.open(sdist) as archive:
        assert f"partyhost-{__version__}/pyproject.toml" in archive.getnames()

    friend = tmp_path / "friend"
    friend.mkdir()
    env = _friends_environment(friend)
    partyhost = _install(wheel, tmp_path / "venv", env)
    where = _run([str(partyhost.with_name("python")), "-c", WHERE], cwd=friend, env=env)
    assert Path(where.strip()).is_relative_to(tmp_path / "venv")

    assert _run([str(partyhost), "--version"], friend, env).split() == ["partyhost", __version__]
    helped = _run([str(partyhost), "--help"], friend, env)
    assert all(command in helped for command in ("play", "serve", "join", "decks", "replay"))

    listed = _run([str(partyhost), "games"], friend, env).splitlines()
    assert [line.split()[0] for line in listed[1:]] == SHIPPED_GAMES

    decks = _run([str(partyhost), "decks", "list"], friend, env)
    for shipped in (ROOT / "decks").glob("*.yaml"):
        assert re.search(rf"^\s+{re.escape(shipped.stem)}\s+shipped\s", decks, re.MULTILINE)

    headless = {
        "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver",
        "TEXTUAL_SCREENSHOT": str(SCREENSHOT_SECONDS),
        "TEXTUAL_SCREENSHOT_LOCATION": str(friend),
        "TEXTUAL_SCREENSHOT_FILENAME": "play.svg",
    }
    play = [str(partyhost), "play", "tshirt", "--bots", "2", "--name", "Tess", "--bot-pace", "0.1"]
    _run(play, friend, {**env, **headless})
    screen = _screen_text(friend / "play.svg")
    # The game is under way: its round in the title bar, every seat in the scores (the
    # log's first lines may have scrolled away by the time the screen is taken).
    assert re.search(r"Round \d+", screen) and "Tess" in screen and "Bot 2" in screen, screen

    welcome = _serve_answers_then_quits(partyhost, friend, env)
    assert [game["id"] for game in welcome["games"]] == SHIPPED_GAMES
