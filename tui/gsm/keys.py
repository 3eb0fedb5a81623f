"""The keys all four Game, Set, Match! screens share: choose a card, move the cursor, turn,
color letters, chat and leave (each screen puts its own keys between)."""

from __future__ import annotations

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
            show=way == "left",
            group=MOVE,
        )
        for way, (dx, dy) in STEPS.items()
    ),
    Binding("r", "turn", "Turn"),
]
TAIL: list[BindingType] = [
    Binding("i", "initials", "Color letters", show=False),
    Binding("c", "chat", "Chat"),
    Binding("escape", "leave", "Leave"),
]
