"""Engine tournaments: ``shashki tournament`` (docs/TOURNAMENT.md).

:mod:`.event` what an event is (its TOML file), :mod:`.schedule` who plays whom,
:mod:`.standings` the standings, Elo and crosstable, :mod:`.runner` the playing, resumed
where it stopped, :mod:`.ballots` the opening ballots shashki ships.
"""
