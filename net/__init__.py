"""Networking for partyhost: the wire protocol, the host, the client library and bots.

Game-agnostic by design: games come from :mod:`partyhost.engine`'s registry
and no rule of any game lives here.
"""
