"""The bottom of shashki: what every layer uses, on the standard library alone.

- :mod:`~shashki.base.folders`: the user's folders (the XDG base directories);
- :mod:`~shashki.base.userfiles`: opening a file a user names (regular files only, never
  blocking, decoded by its BOM);
- :mod:`~shashki.base.ownfiles`: writing shashki's own files (no link followed, nothing but
  this user's files, atomic replacement);
- :mod:`~shashki.base.numbers`: numbers, quotations and lines of text taken from user text
  or another program, safely;
- :mod:`~shashki.base.workers`: jobs over every core, in worker processes (or on a
  cluster), their results given as they come.
- :mod:`~shashki.base.stack`: a deep recursion (the search) run on a roomy stack of the
  interpreter's frames;
- :mod:`~shashki.base.door`: a server's idle connections, bounded in time and number.

It imports nothing of shashki but :mod:`shashki.i18n` (the words of its messages); this
file imports nothing at all, so that :mod:`shashki.native` may read the cache folder
before anything else is loaded.
"""
