"""The host process: connections, the lobby, limits, decks on offer, ways in."""
