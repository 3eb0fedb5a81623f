"""Where partyhost keeps its files: one partyhost folder per platform, overridable for tests."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

import platformdirs
import platformdirs.windows
import pytest
from partyhost import paths

WINDOWS_FOLDERS = {
    "CSIDL_APPDATA": r"C:\Users\Tess\AppData\Roaming",
    "CSIDL_LOCAL_APPDATA": r"C:\Users\Tess\AppData\Local",
}


@pytest.fixture
def no_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PARTYHOST_CONFIG_DIR", "PARTYHOST_DATA_DIR", "PARTYHOST_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_overrides")
def test_windows_folders_hold_partyhost_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """platformdirs adds an author's folder on Windows unless told there is none."""
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", WINDOWS_FOLDERS.__getitem__)
    expected = PureWindowsPath(WINDOWS_FOLDERS["CSIDL_LOCAL_APPDATA"], "partyhost")
    for folder in (paths.config_dir(), paths.data_dir(), paths.state_dir()):
        assert PureWindowsPath(str(folder)) == expected
    assert PureWindowsPath(str(paths.user_decks_dir())) == expected / "decks"
    assert PureWindowsPath(str(paths.host_data_dir())) == expected / "host"


@pytest.mark.usefixtures("no_overrides")
def test_platform_folders_end_in_partyhost() -> None:
    for folder in (paths.config_dir(), paths.data_dir(), paths.state_dir()):
        assert folder.name == "partyhost"
        assert folder.parent.name != "partyhost"


def test_environment_overrides_each_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARTYHOST_STATE_DIR", str(tmp_path / "state"))
    assert paths.user_decks_dir() == tmp_path / "config" / "decks"
    assert paths.host_data_dir() == tmp_path / "data" / "host"
    assert paths.host_data_dir("elsewhere") == Path("elsewhere")
    assert paths.state_dir() == tmp_path / "state"
