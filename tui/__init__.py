"""The Textual client: renders the host's views and sends commands; never decides a rule."""
