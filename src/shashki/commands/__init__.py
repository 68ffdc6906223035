"""The subcommands of ``shashki``, one module each (``shashki play`` is :mod:`.play`).

Each module has an ``add(sub)`` that adds its parser to the command line's subparsers,
with the function that runs it (``set_defaults(func=…)``, which returns the exit
status); :mod:`.common` holds what they share.  :mod:`shashki.cli` assembles them in the
order of its ``COMMANDS``: a new subcommand is a module here and a name there.
"""
