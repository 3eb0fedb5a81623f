"""The client library: what the terminal client, bots and tests talk to a host with."""
