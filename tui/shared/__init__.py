"""What every game's client uses: connect, lobby, room, chat, log, dialogs, results; each
game's own screens live in its folder, and ``tui/games.py`` says which game gets which."""
