"""Other programs' engines over the Hub protocol (versions 1 and 2): the protocol's text
(:mod:`.text`), the lines both ways (:mod:`.transport`, and the engine log), and the
client (:mod:`.client`: :class:`~.client.HubEngine`, :func:`~.client.open_engine`).

Beside the search of :mod:`shashki.engine`, below the front ends: a script, the session's
Hub player (:mod:`shashki.hub.player`) and ``shashki match`` use the same client; the
engine as a Hub engine for other programs (``shashki hub``) is :mod:`shashki.hub.server`.
"""
