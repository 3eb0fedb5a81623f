"""partyhost: party card games for a group of friends on one LAN, in the terminal."""

from __future__ import annotations

__version__ = "0.1.0"
