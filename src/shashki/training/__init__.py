"""Training: puzzles mined from games, and the mining and the opening explorer's
indexing on a Dask cluster (docs/TRAINING.md).

- :mod:`~shashki.training.mining`: a position judged, a puzzle's solution verified;
- :mod:`~shashki.training.themes`: a puzzle's themes and difficulty;
- :mod:`~shashki.training.book`: the book of puzzles (a PDN file) and where mining stopped;
- :mod:`~shashki.training.harvest`: ``shashki puzzles mine``: archives mined in worker
  processes, resumed where they stopped;
- :mod:`~shashki.training.cluster`: the jobs of both on a Dask cluster
  (``--cluster ADDRESS``; the optional extra ``shashki[cluster]``).
"""
