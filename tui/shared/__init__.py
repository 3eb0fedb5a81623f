"""What every game's client uses: connect, lobby, room, help, chat, log, dialogs, results.

Screens and the widgets they share; each game's own screens and widgets live
in its folder (``tshirt/``, ``meme/``, ``gsm/``), and ``tui/games.py`` says
which game gets which.
"""
