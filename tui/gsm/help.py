"""How to play each Game, Set, Match! game, as the help screen shows it.

Each game's page is its own rules followed by the card rule all four share;
keys come from the screens.
"""

from __future__ import annotations

CARDS = """\
Game, Set, Match! cards show sports gear in colors. Every cell shows the
thing (its picture, when the terminal draws emoji), its letter and its
color's letter. In the shipped deck: G golf ball, T tennis racket, M baseball
mitt, H football helmet, S basketball sneaker, B soccer ball; r red, b blue,
g green, p purple, y yellow, w white (i hides the color letters). A card goes
down beside a card already on the board, sharing a full side. Wherever cards
meet, touching cells (across corners too) must differ in object AND in color.
A card may be turned upside down when the room allows it."""

STEALING_HOME = f"""\
A race. Each round two cards are turned face up. Spot where one of them
fits and call Match! naming the card and the place: the first right call
places it, and its caller keeps the other card. A wrong call locks you out
until the next round; calls a blink apart are a tie, and only the tied
players race on two new cards. Nothing fits? Vote no fit (the round timer
ends the round too). When the cards run out, most cards kept wins.

{CARDS}"""

SCRAMBLE = f"""\
A race. Everyone gets 7 cards and arranges them on a private board: place,
move, turn and take back freely, nothing is checked yet. When all 7 form
one grid and every touching pair obeys the rule, call Game! A wrong call
sends all your cards back to your hand and play goes on. When everyone is
stuck the hand is void and fresh cards are dealt. The room may play a
best of 3 or 5.

{CARDS}"""

GRIDIRON = f"""\
Turns. Everyone gets 7 cards; one card starts the board. On your turn put
down one card where it fits. Only when none of yours fits anywhere do you
draw one (and your turn ends), or pass once the pile is empty. The first
player out of cards wins; if everyone passes in a row, the fewest cards in
hand wins.

{CARDS}"""

FOUR_CORNERS = f"""\
A race for two. Each gets 10 cards; one card lies in the middle. The first
card put beside it fixes your line, across or up and down, and the other
player gets the other line. Build only at the two ends of your own line;
take an end card back to use it elsewhere. First out of cards wins; if no
card is placed before the stall timer runs out, or both say stuck, fewer
cards in hand wins.

{CARDS}"""
