"""A QR code drawn as text reads back, module for module, as the code segno made.

Each drawing is decoded by the rule it claims (see ``qrreading``) and compared with
segno's own matrix, quiet zone included.
"""

from __future__ import annotations

import pytest
import segno
from partyhost.net.qrdrawing import QUIET_ZONE, blocks_fit, draw_qr, qr_modules
from qrreading import decode_ascii, decode_blocks, segno_modules

URLS = ["http://192.168.1.23:8080/", "http://[fd00::1234:5678]:8080/", "http://10.0.0.8:80/"]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("border", [QUIET_ZONE, 2])
def test_the_half_block_drawing_is_the_code(url: str, border: int) -> None:
    expected = segno_modules(url, border)
    lines = draw_qr(url, border=border)
    assert len(lines) == (len(expected) + 1) // 2
    assert all(len(line) == len(expected) for line in lines)
    assert decode_blocks(lines, len(expected)) == expected == qr_modules(url, border)


@pytest.mark.parametrize("url", URLS)
def test_the_ascii_drawing_is_the_code(url: str) -> None:
    lines = draw_qr(url, ascii_only=True)
    assert all(line.isascii() for line in lines)
    assert decode_ascii(lines) == segno_modules(url, QUIET_ZONE)


def test_the_quiet_zone_is_light_all_round() -> None:
    modules = qr_modules(URLS[0])
    for row in modules[:QUIET_ZONE] + modules[-QUIET_ZONE:]:
        assert not any(row)
    for row in modules:
        assert not any(row[:QUIET_ZONE] + row[-QUIET_ZONE:])
    assert modules[QUIET_ZONE][QUIET_ZONE]  # a finder pattern's dark corner


def test_a_door_url_is_a_full_qr_code_small_enough_for_80x24() -> None:
    code = segno.make("http://192.168.100.200:65535/", micro=False)
    assert not code.is_micro and code.version in (2, 3)
    assert len(draw_qr("http://192.168.100.200:65535/", border=2)) <= 17


def test_blocks_only_where_the_output_can_write_them() -> None:
    assert blocks_fit("utf-8") and blocks_fit("cp437")
    assert not blocks_fit("cp1252") and not blocks_fit("ascii") and not blocks_fit(None)
    assert not blocks_fit("no-such-encoding")
