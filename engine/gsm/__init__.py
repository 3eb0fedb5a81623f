"""Game, Set, Match!: four games played with one deck of sports-gear cards.

The four games are Stealing Home, Scramble, Gridiron and Four Corners. Each
variant is a package holding only what differs: its declaration (``game``),
``state`` (with ``setup`` and ``evolve``), ``rules``, ``views``, ``wire`` and,
where it plays its own way, ``bot``. What they share lives here, in the
module named for its job (:mod:`.game`, :mod:`.state`, :mod:`.rules`,
:mod:`.views`, :mod:`.bot`, :mod:`.wire`), with the card model (:mod:`.cards`,
:mod:`.deck`), placements (:mod:`.placement`, with the fast search in
:mod:`.board` over the neighbour masks of :mod:`.masks`) and the solver
(:mod:`.solver`).
"""
