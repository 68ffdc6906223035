"""Playing a friend on another machine (layer 4, beside :mod:`shashki.hub`): a host and
a guest, each with its own :class:`~shashki.session.GameSession`, speak a small JSON
protocol over one WebSocket (aiohttp).  The host is the referee and keeps the clocks;
the guest checks every move too.  The protocol, its limits and the security model are
in docs/ONLINE.md.  No Textual here: the app's screen is ``shashki.app.online``.
"""
