"""Deck files: the shipped decks (``*.yaml`` beside this module) and how any deck file is read.

:mod:`.files` turns one YAML-style file into a validated deck, naming
``file:line:column`` for every problem; :mod:`.catalog` finds deck files on the
search path (shipped, then the user's deck folder). Both sit below the network
layer and above the engine: the host and the command line read decks through
them, and the engine only ever sees already-parsed data.
"""
