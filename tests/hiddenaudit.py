"""What each seat may not see, decided from the host's state, and a search of frames for it.

The engines' ``view`` functions are not asked: the secrets come from the
host's state at a version (rebuilt from the journal) and the rulebooks
(as docs/rules.md states them); the search walks every decoded frame, whatever
its type and layout. A secret is recognised on the wire as:

* text: the audit T-shirt deck gives every card a unique marker such as
  ``<slogan-0042>``; seat tokens are text too. Any string or key containing
  one is a leak, so the search is exact.
* number: the room's seed, every generator state of the game and the bots'
  seeds are 63/64-bit integers: equal to any integer (value or key), or
  written in decimal inside any string, is a leak.
* card id: an integer under a key that names a card (``card``, ``id``,
  ``kept``...) or in a list under a key that lists cards (``cards``,
  ``hand``, ``pile``...). T-shirt ids count per deck (slogan, T-shirt, Hot or
  Not), told apart by the fields beside the id; a bare id is a leak when it is
  hidden in every deck that has that id. (An id under a key that names no
  card is beyond an exact search; its card's text or cells are not.)
* cells: a Game, Set, Match! card is a grid of (object, color) cells that no
  other card repeats, even turned, so its grid names it as surely as its id.
* order: any four cards of a hidden pile in a row, inside any list of integers
  (and the authors of the revealed slogans in the judge's order).
* link: one map tying a seat to that seat's hidden choice, such as
  ``{"seat": 2, "meme": 5}`` or a slogan next to its author before the pick.
  Records of earlier rounds or turns (a map whose ``round``/``turn`` is not
  the current one) are history and exempt from links.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Predicate = Callable[[Any], bool]
Namespaces = Callable[[Mapping[str, Any]], tuple[str, ...]]

CARD_KEYS = frozenset({"card", "id", "kept", "booyah_card", "stolen_card"})
CARD_LIST_KEYS = frozenset({"cards", "hand", "pile", "rest", "order", "face_up", "out_of_play"})
SEAT_KEYS = ("seat", "author", "by", "owner", "player", "from", "winner")
RUN = 4
"""A list holding this many hidden pile cards in pile order gives the order away."""
LARGE = 1 << 24
"""Secret numbers below this are ignored: a count or an id could equal them by chance."""


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def equals(expected: Any) -> Predicate:
    """Equality that does not take ``True`` for ``1``."""
    return lambda seen: type(seen) is type(expected) and seen == expected


@dataclass(frozen=True)
class Link:
    """Fields that must not meet in one map: together they tie a seat to its secret."""

    what: str
    fields: tuple[tuple[tuple[str, ...], Predicate], ...]

    def found_in(self, node: Mapping[str, Any]) -> bool:
        return all(any(k in node and test(node[k]) for k in keys) for keys, test in self.fields)


@dataclass
class Secrets:
    """Everything one seat must not be sent at one version."""

    texts: dict[str, str] = field(default_factory=dict)
    numbers: dict[int, str] = field(default_factory=dict)
    cards: dict[str, set[int]] = field(default_factory=dict)
    runs: list[tuple[tuple[int, ...], int, str]] = field(default_factory=list)
    """(hidden order, how many in a row give it away, what it is)."""
    links: list[Link] = field(default_factory=list)
    history: tuple[str, int] | None = None
    """(key, current value): a map whose key holds another value records the past."""
    hands: int = 0
    """How many cards in other seats' hands this seat may not see (for the audit's stats)."""


@dataclass(frozen=True)
class Wire:
    """How one game names cards on the wire (constant for a game and deck)."""

    universe: Mapping[str, int] = field(default_factory=dict)
    """Deck name to its number of cards (ids are 0..n-1)."""
    namespaces: Namespaces = lambda node: ()
    cells: Mapping[tuple[tuple[int, int], ...], int] = field(default_factory=dict)
    """Every Game, Set, Match! card's cells, unturned and turned, to its id."""


def scan(message: Any, secrets: Secrets, wire: Wire) -> list[str]:
    """Every leak of ``secrets`` in one decoded frame, described."""
    search = _Search(secrets, wire)
    search.walk(message, "", historical=False)
    blob = "\x00".join(search.strings)
    for text, what in secrets.texts.items():
        if text in blob:
            search.found.append(f"{what} {text!r} in a string")
    for number, what in secrets.numbers.items():
        if str(number) in blob:
            search.found.append(f"{what} written in a string")
    return search.found


class _Search:
    def __init__(self, secrets: Secrets, wire: Wire) -> None:
        self.secrets = secrets
        self.wire = wire
        self.windows: dict[int, dict[tuple[int, ...], str]] = {}
        for order, size, what in secrets.runs:
            for start in range(len(order) - size + 1):
                self.windows.setdefault(size, {})[tuple(order[start : start + size])] = what
        self.strings: list[str] = []
        self.found: list[str] = []

    def walk(self, node: Any, path: str, historical: bool) -> None:
        if isinstance(node, dict):
            self._map(node, path, historical)
        elif isinstance(node, list):
            self._list(node, path, historical)
        elif isinstance(node, str):
            self.strings.append(node)
        elif is_int(node) and node in self.secrets.numbers:
            self.found.append(f"{self.secrets.numbers[node]} at {path}")

    def _map(self, node: dict[Any, Any], path: str, historical: bool) -> None:
        history = self.secrets.history
        if history is not None and is_int(node.get(history[0])) and node[history[0]] != history[1]:
            historical = True
        if not historical:
            self.found.extend(
                f"{link.what} at {path or '.'}"
                for link in self.secrets.links
                if link.found_in(node)
            )
        spaces = self.wire.namespaces(node)
        for key, value in node.items():
            self.walk(key, f"{path}.<key>", historical)
            where = f"{path}.{key}"
            if key in CARD_KEYS and is_int(value):
                self._card(value, spaces, where)
            elif key in CARD_LIST_KEYS and isinstance(value, list):
                for card in value:
                    if is_int(card):
                        self._card(card, spaces, where)
            self.walk(value, where, historical)

    def _list(self, node: list[Any], path: str, historical: bool) -> None:
        if node and all(is_int(item) for item in node):
            for size, windows in self.windows.items():
                for start in range(len(node) - size + 1):
                    what = windows.get(tuple(node[start : start + size]))
                    if what is not None:
                        self.found.append(f"{what} at {path}")
        card = self.wire.cells.get(cells_of(node)) if self.wire.cells else None
        if card is not None and card in self.secrets.cards.get("gsm", ()):
            self.found.append(f"hidden card {card} by its cells at {path}")
        for index, item in enumerate(node):
            self.walk(item, f"{path}[{index}]", historical)

    def _card(self, card: int, spaces: tuple[str, ...], where: str) -> None:
        hidden = self.secrets.cards
        candidates = [name for name in spaces if 0 <= card < self.wire.universe.get(name, 0)]
        if candidates and all(card in hidden.get(name, ()) for name in candidates):
            self.found.append(f"hidden {'/'.join(candidates)} card {card} at {where}")


def cells_of(node: list[Any]) -> tuple[tuple[int, int], ...]:
    """``node`` read as rows of [object, color] cells, row-major; () if it is not that."""
    cells: list[tuple[int, int]] = []
    for row in node:
        if not isinstance(row, list) or not row:
            return ()
        for cell in row:
            if not (isinstance(cell, list) and len(cell) == 2 and all(map(is_int, cell))):
                return ()
            cells.append((cell[0], cell[1]))
    return tuple(cells)


# --- The T-Shirt Game ---------------------------------------------------------


def tshirt_wire(deck: Any) -> Wire:
    def namespaces(node: Mapping[str, Any]) -> tuple[str, ...]:
        if "text" in node:
            return ("slogan",)
        if "picture" in node or "art" in node:
            return ("tshirt",)
        if any(key in node for key in ("verdict", "points", "booyah", "victims")):
            return ("hot",)
        return ("slogan", "tshirt", "hot")

    sizes = {"slogan": len(deck.slogans), "tshirt": len(deck.tshirts), "hot": len(deck.hot_or_not)}
    return Wire(universe=sizes, namespaces=namespaces)


def tshirt_revealed(states: Mapping[int, Any]) -> dict[int, frozenset[int]]:
    """Per version, every slogan turned face up so far (the rest of the discard never was)."""
    seen: set[int] = set()
    out: dict[int, frozenset[int]] = {}
    for version in sorted(states):
        state = states[version]
        if state.phase.value == "judging":
            seen.update(sub.card for sub in state.submissions)
        out[version] = frozenset(seen)
    return out


def tshirt_history(state: Any) -> set[str]:
    """Every finished round's winning slogan and shirt picture: everyone saw them then."""
    texts = {state.deck.tshirts[r.tshirt].picture for r in state.rounds if r.tshirt is not None}
    for result in state.rounds:
        if result.winning_index is not None:
            texts.add(state.deck.slogans[result.submissions[result.winning_index].card])
    return texts


def tshirt_secrets(state: Any, seat: int | None, revealed: frozenset[int]) -> Secrets:
    """Hands of others, face-down slogans, the three piles, and authors before the pick."""
    deck, phase = state.deck, state.phase.value
    slogans: set[int] = set(state.slogan_pile) | (set(state.slogan_discard) - revealed)
    hands = 0
    for player in state.players:
        if player.seat != seat:
            slogans.update(player.hand)
            hands += len(player.hand)
    if phase == "submitting":
        slogans.update(sub.card for sub in state.submissions if sub.seat != seat)
    last = state.rounds[-1] if state.rounds else None
    shown_slogans = {sub.card for sub in last.submissions} if last is not None else set()
    if phase == "judging":
        shown_slogans.update(sub.card for sub in state.submissions)
    slogans -= shown_slogans
    shirts = set(state.tshirt_pile) - {state.tshirt, last and last.tshirt}
    shown_hot = {last.hot_card, last.stolen_card} if last is not None else set()
    if state.booyah is not None:
        shown_hot.add(state.booyah.card)
    hot = set(state.hot_pile) - shown_hot
    secrets = Secrets(
        cards={"slogan": slogans, "tshirt": shirts, "hot": hot},
        runs=[
            (tuple(state.slogan_pile), RUN, "slogan pile order"),
            (tuple(state.tshirt_pile), RUN, "T-shirt pile order"),
            (tuple(state.hot_pile), RUN, "Hot or Not pile order"),
        ],
        history=("round", state.round),
        hands=hands,
    )
    secrets.texts.update({deck.slogans[c]: "hidden slogan" for c in slogans})
    secrets.texts.update({deck.tshirts[c].art: "unturned T-shirt art" for c in shirts})
    secrets.texts.update({deck.tshirts[c].picture: "unturned T-shirt" for c in shirts})
    for text in tshirt_history(state):  # shown when their round ended: where they are now stays
        secrets.texts.pop(text, None)
    secrets.texts.pop("", None)
    secrets.texts.update({deck.hot_or_not[c].verdict: "undrawn Hot or Not card" for c in hot})
    if phase == "judging":
        authors = [sub.seat for sub in state.submissions]
        for index, sub in enumerate(state.submissions):
            if sub.seat == seat:
                continue
            author = (SEAT_KEYS, equals(sub.seat))
            text = (("text", "slogan"), equals(deck.slogans[sub.card]))
            secrets.links.append(Link("author of a revealed slogan", (author, text)))
            place = (("index",), equals(index))
            secrets.links.append(Link("author of a revealed slogan's place", (author, place)))
        if sum(author != seat for author in authors) >= 2 and authors != sorted(authors):
            secrets.runs.append((tuple(authors), len(authors), "authors in revealed order"))
    return secrets


# --- What Do You Meme? --------------------------------------------------------

MEME_KEYS = ("meme", "reaction", "guess", "choice")


def _same_bets(expected: Mapping[int, int]) -> Predicate:
    """A list of ``{seat, amount}`` entries holding exactly these bets, in any order."""
    want = Counter(expected.items())

    def test(seen: Any) -> bool:
        entries = [e for e in seen if isinstance(e, dict)] if isinstance(seen, list) else []
        return Counter((e.get("seat"), e.get("amount")) for e in entries) == want

    return test


def _seat(seat: int) -> tuple[tuple[str, ...], Predicate]:
    """A map names ``seat`` under any key that says whose something is (or who reacts)."""
    return (*SEAT_KEYS, "reactor"), equals(seat)


def meme_secrets(state: Any, seat: int | None) -> Secrets:
    """The reactor's meme before its reveal, face-down guesses, sealed second bets."""
    secrets = Secrets(history=("turn", state.turn))
    reactor = state.reactor
    if state.reaction is not None and not state.reaction_revealed and seat != reactor:
        reacted = (MEME_KEYS, equals(state.reaction))
        secrets.links.append(Link("the reactor's face-down meme", (_seat(reactor), reacted)))
    if not state.guesses_revealed:
        for guesser, meme in state.guesses.items():
            if guesser != seat:
                guessed = (MEME_KEYS, equals(meme))
                secrets.links.append(Link("a face-down guess", (_seat(guesser), guessed)))
    if not state.bets_revealed:
        for bettor, bets in state.bets.items():
            if bettor != seat and bets:
                placed = (("bets",), _same_bets(bets))
                secrets.links.append(Link("a sealed bet", (_seat(bettor), placed)))
    return secrets


def meme_wire(deck: Any) -> Wire:
    """Every seat holds the same public memes: no card is hidden, only choices."""
    return Wire()


# --- Game, Set, Match! --------------------------------------------------------


def gsm_wire(deck: Any) -> Wire:
    cells: dict[tuple[tuple[int, int], ...], int] = {}
    for card in deck.cards:
        for shown in (tuple(card.cells), tuple(reversed(card.cells))):
            assert shown not in cells, "two cards of the audit deck look alike"
            cells[shown] = card.id
    return Wire(universe={"gsm": len(deck.cards)}, namespaces=lambda node: ("gsm",), cells=cells)


def _ids_in(value: Any) -> Iterable[int]:
    """Card ids in a public record (``last``): ints under card keys, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in CARD_KEYS and is_int(item):
                yield item
            elif key in CARD_LIST_KEYS and isinstance(item, list):
                yield from (card for card in item if is_int(card))
            yield from _ids_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _ids_in(item)


def _spot(card: int, x: int, y: int, what: str) -> Link:
    return Link(what, ((("card", "id"), equals(card)), (("x",), equals(x)), (("y",), equals(y))))


def gsm_secrets(game_id: str, state: Any, seat: int | None) -> Secrets:
    """Other hands, Scramble boards, draw piles and cards out of play, a pending claim's spot."""
    hidden: set[int] = (
        set(getattr(state, "out_of_play", ())) if game_id != "stealing-home" else set()
    )
    hands = 0
    for owner, hand in getattr(state, "hands", {}).items():
        if owner != seat:
            hidden.update(hand)
            hands += len(hand)
    secrets = Secrets()
    pile = tuple(getattr(state, "pile", ()))
    hidden.update(pile)
    secrets.runs.append((pile, RUN, "draw pile order"))
    if game_id in ("scramble", "four-corners"):
        secrets.runs.append((tuple(state.out_of_play), RUN, "order of the cards out of play"))
    public = {p.card for p in getattr(state, "board", ())} | set(getattr(state, "face_up", ()))
    public.update(_ids_in(state.last))
    if game_id == "scramble":
        called = {(p["card"], p["x"], p["y"]) for p in (state.last or {}).get("board", [])}
        for owner, board in state.boards.items():
            if owner == seat:
                continue
            hidden.update(p.card for p in board)
            hands += len(board)
            for p in board:
                if (p.card, p.x, p.y) not in called:
                    secrets.links.append(_spot(p.card, p.x, p.y, "a card on a private board"))
    if game_id == "stealing-home" and state.first is not None and state.first.seat != seat:
        move = state.first.move
        secrets.links.append(_spot(move.card, move.x, move.y, "the spot of a pending claim"))
    secrets.cards["gsm"] = hidden - public
    secrets.hands = hands
    return secrets


# --- every game ---------------------------------------------------------------


class Auditor:
    """Checks frames of one recorded game against the secrets at their version."""

    def __init__(self, game_id: str, states: Mapping[int, Any], numbers: Mapping[int, str]) -> None:
        self.game_id = game_id
        self.states = states
        found = {state.rng: "a generator state" for state in states.values()} | dict(numbers)
        self.numbers = {n: what for n, what in found.items() if n >= LARGE}
        deck = states[min(states)].deck
        self.wire = {"tshirt": tshirt_wire, "meme": meme_wire}.get(game_id, gsm_wire)(deck)
        self.revealed = tshirt_revealed(states) if game_id == "tshirt" else {}
        self._cache: dict[tuple[int | None, int | None], Secrets] = {}
        self.stats: Counter[str] = Counter()

    def secrets(self, version: int | None, seat: int | None) -> Secrets:
        if (version, seat) not in self._cache:
            self._cache[version, seat] = self._secrets(version, seat)
        return self._cache[version, seat]

    def _secrets(self, version: int | None, seat: int | None) -> Secrets:
        if version is None:
            found = Secrets()
        elif self.game_id == "tshirt":
            found = tshirt_secrets(self.states[version], seat, self.revealed[version])
        elif self.game_id == "meme":
            found = meme_secrets(self.states[version], seat)
        else:
            found = gsm_secrets(self.game_id, self.states[version], seat)
        found.numbers.update(self.numbers)
        return found

    def check(
        self, message: Any, version: int | None, seat: int | None, texts: Mapping[str, str]
    ) -> list[str]:
        """Leaks in ``message`` sent to ``seat`` while it knew ``version`` (None: no game yet)."""
        secrets = self.secrets(version, seat)
        if texts:
            secrets = Secrets(**{**secrets.__dict__, "texts": {**secrets.texts, **texts}})
        self.stats["frames"] += 1
        self.stats[f"frames:{message.get('t')}"] += 1
        self.stats["in game"] += version is not None
        self.stats["hidden cards"] += sum(map(len, secrets.cards.values()))
        self.stats["frames with hidden hands"] += secrets.hands > 0
        self.stats["frames with links"] += bool(secrets.links)
        return scan(message, secrets, self.wire)
