"""The doors: an SSH session or a browser page opens the partyhost client, nothing installed."""
