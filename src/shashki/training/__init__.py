"""Training: puzzles mined from games and solved in the app, the opening explorer's
indexing, and the same work on a Dask cluster (docs/TRAINING.md).

- :mod:`~shashki.training.mining`: ``shashki puzzles mine``: the games of archives read
  in worker processes, each position judged, the puzzles kept;
- :mod:`~shashki.training.trainer`: one puzzle being solved, the hints, the wrong
  move's answer, the rating and the streak (plain Python: the app shows it);
- :mod:`~shashki.training.cluster`: the jobs of both on a Dask cluster
  (``--cluster ADDRESS``; the optional extra ``shashki[cluster]``).
"""
