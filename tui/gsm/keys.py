"""The keys all four Game, Set, Match! screens share: choose a card, move the cursor, turn,
color letters, chat, the table's keys and leave (each screen puts its own keys between).

Moving and turning are not in the footer (the line above the hand names them),
so that each game's own keys and Help fit in 80 columns.
"""

from __future__ import annotations

from partyhost.tui.shared.gametable import TABLE_KEYS
from textual.binding import Binding, BindingType

CHOOSE = Binding.Group("Choose")
MOVE = Binding.Group("Move")
STEPS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
VIM = {"left": "h", "right": "l", "up": "k", "down": "j"}
HEAD: list[BindingType] = [
    *(
        Binding(str(n % 10), f"choose({n})", "Card", key_display="1-9", show=n == 1, group=CHOOSE)
        for n in range(1, 11)
    ),
    *(
        Binding(
            f"{way},{VIM[way]}",
            f"move({dx},{dy})",
            "Move",
            key_display="hjkl",
            show=False,
            group=MOVE,
        )
        for way, (dx, dy) in STEPS.items()
    ),
    Binding("r", "turn", "Turn", show=False),
]
TAIL: list[BindingType] = [
    Binding("i", "initials", "Color letters on/off", show=False),
    Binding("c", "chat", "Chat"),
    *TABLE_KEYS,
    Binding("escape", "leave", "Leave"),
]
