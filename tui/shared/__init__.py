"""What every game's client uses: connect, lobby, room, chat, log, dialogs, results.

Screens and the widgets they share; each game's own screens and widgets live
in its folder (``tshirt/``, ``meme/``, ``gsm/``), and ``tui/games.py`` says
which game gets which; ``tui/help.py`` is the help screen, above both,
since it shows every game's rules.
"""
