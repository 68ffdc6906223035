"""The Hub protocol (draughts engines' line protocol, versions 1 and 2): shashki's engine
as a Hub engine (``shashki hub``), other Hub engines as players, and a match runner
(``shashki match``).

Layers: this package uses the rules, the records and the engine; nothing here imports the
app, and the rules never import this.
"""
