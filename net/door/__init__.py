"""The SSH door: a visitor's ssh session opens the partyhost client."""
