"""Saving a game to a file, and opening a file in the replay viewer (a part of
:class:`~shashki.app.app.ShashkiApp`).  In served mode every path stays inside the games
folder (:mod:`shashki.session.served`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import N_, _, os_reason
from ..rules import ShashkiError
from ..session.autosave import one_line
from ..session.served import NotAllowed, games_file, inside_games, served, shown_path
from ..store.studies import Origin
from .dialogs import ConfirmScreen, TextPrompt
from .shell import Shell

if TYPE_CHECKING:
    from ..records import GameRecord
    from .controller import GameController


class GameFiles(Shell):
    """Saving and opening PDN files."""

    def save_game_dialog(self, controller: GameController) -> None:
        """Ask for a file name (a new one is suggested) and save the game there; a file
        that exists is replaced only when the player says so."""
        from ..store import safe_stem

        stem = f"{safe_stem(controller.variant.id)}-{datetime.now():%Y-%m-%d-%H%M}"
        self._ask_where(stem, lambda path: self.save_game_to(controller, path))

    def save_record_dialog(
        self, record: GameRecord, origin: Origin, on_saved: Callable[[], None]
    ) -> None:
        """Save a study's record: a game of My games back into My games, any other to a
        PDN file the player names (a new one is suggested)."""
        from ..store import safe_stem
        from ..store.archive import keep_game

        if origin.kept:
            try:
                keep_game(record, origin.kept)
            except (OSError, ValueError) as exc:
                self.error_notice(_("Not saved: {reason}").format(reason=one_line(exc)))
                return
            on_saved()
            self.notify(_("Saved in My games"), markup=False)
            return
        base = origin.path.stem if origin.path is not None else ""
        if not base and record.variant is not None:
            base = record.variant.id
        if origin.path is not None and origin.number:
            base += f"-{origin.number}"
        stem = f"{safe_stem(base)}-study"

        def save(path: Path) -> None:
            self._save_records(lambda: record, path, on_saved=on_saved)

        self._ask_where(stem, save, study=True)

    def _ask_where(self, stem: str, save: Callable[[Path], object], *, study: bool = False) -> None:
        """Ask for a file name (``stem`` made a free name in the games folder is
        offered) and call ``save`` with the path chosen (``study``: a study is saved)."""
        from ..store import free_name, games_dir

        folder = games_dir()
        default = free_name(folder, stem)

        def chosen(name: str | None) -> None:
            if not name:
                return
            if served():  # a visitor names a file of the games folder, nothing else
                try:
                    path = games_file(name, folder)
                except NotAllowed as exc:
                    self.error_notice(_("Not saved: {reason}").format(reason=exc))
                    return
                save(path)
                return
            try:
                path = Path(name).expanduser()
            except RuntimeError as exc:  # "~nobody/x": no such home folder
                self.error_notice(_("Not saved: {reason}").format(reason=one_line(exc)))
                return
            if not path.is_absolute():
                path = folder / path
            save(path)

        if served():
            self.push_screen(
                TextPrompt(
                    N_("Save the study as (a PDN file of the games folder):")
                    if study
                    else N_("Save the game as (a PDN file of the games folder):"),
                    default.name,
                ),
                chosen,
            )
            return
        question = (
            N_("Save the study as (PDN file):") if study else N_("Save the game as (PDN file):")
        )
        self.push_screen(TextPrompt(question, str(default)), chosen)

    def save_game_to(
        self, controller: GameController, path: Path, *, replace: bool = False
    ) -> bool:
        """Save the game to ``path``; an existing file is first asked about (unless
        ``replace``).  Says in one line what happened; True when saved."""
        return self._save_records(controller.session.record, path, replace=replace)

    def _save_records(
        self,
        record: Callable[[], GameRecord],
        path: Path,
        *,
        replace: bool = False,
        on_saved: Callable[[], None] | None = None,
    ) -> bool:
        """Save ``record()`` to ``path``; an existing file is first asked about (unless
        ``replace``).  Says in one line what happened; True when saved (``on_saved`` is
        called then, also after a replacement the player agreed to)."""
        from ..store import TargetExists, games_dir, save_pdn
        from ..store.storage import own_data_folder

        try:
            if path.parent == games_dir():  # shashki's own folder: made, and never a link
                own_data_folder(path.parent)
            if served():  # (checked again: what a visitor saves stays in the games folder)
                inside_games(path)
            save_pdn(path, [record()], replace=replace)
        except TargetExists:
            shown = path.name if served() else path  # (a visitor: not the owner's folders)

            def answered(ok: bool | None) -> None:
                if ok:
                    self._save_records(record, path, replace=True, on_saved=on_saved)
                else:
                    self.notify(
                        _(
                            "Not saved: {path} is left as it was. Press s to choose another name."
                        ).format(path=shown),
                        timeout=8,
                        markup=False,
                    )

            self.push_screen(
                ConfirmScreen(N_("{path} already exists. Replace it with this game?"), path=shown),
                answered,
            )
            return False
        except (OSError, ValueError) as exc:
            self.error_notice(
                _("Not saved: {reason}. The game is still here.").format(reason=one_line(exc))
            )
            return False
        if on_saved is not None:
            on_saved()
        if served():  # a visitor is told the name, not where the owner's files are
            self.notify(
                _("Saved as {name} in the games folder").format(name=path.name), markup=False
            )
            return True
        self.notify(_("Saved to {path}").format(path=path), markup=False)
        return True

    def open_game_dialog(self) -> None:
        """Choose a PDN file (starting in the saved-games folder) and open it."""
        from ..store import data_dir
        from .replay import FileChooserScreen

        folder = data_dir() / "games"
        if served():  # a visitor browses the games folder, and nothing else
            from ..store.storage import own_data_folder

            try:
                own_data_folder(folder)
            except OSError as exc:
                self.error_notice(
                    _("Cannot open the games folder: {reason}").format(reason=one_line(exc))
                )
                return
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                folder = Path.home()

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_game_file(path)

        self.push_screen(FileChooserScreen(folder, confined=served()), chosen)

    def open_game_file(
        self,
        path: Path,
        game_number: int | None = None,
        default_variant: str | None = None,
        *,
        review: bool = False,
    ) -> None:
        """The table of a file's games (or the one game asked for) in the replay viewer."""
        from ..base.userfiles import open_regular
        from ..records.gametypes import DEFAULT_VARIANT
        from ..records.guess import guess_variant
        from .replay import GameTableScreen, load_record

        if served():  # (whatever asked: what a visitor opens is in the games folder)
            try:
                path = inside_games(path)
            except NotAllowed as exc:
                self.error_notice(
                    _("Cannot open {path}: {reason}").format(path=shown_path(path), reason=exc)
                )
                return
        try:  # a folder, a FIFO or a device is refused at once, without blocking
            open_regular(path).close()
        except OSError as exc:
            reason = _("no such file") if isinstance(exc, FileNotFoundError) else os_reason(exc)
            self.error_notice(
                _("Cannot open {path}: {reason}").format(
                    path=shown_path(path), reason=reason or exc
                )
            )
            return
        if game_number is not None:
            try:
                if default_variant is None:  # untagged games: their variant guessed
                    guess = guess_variant(path)
                    if guess is not None and guess.variant.id != DEFAULT_VARIANT:
                        default_variant = guess.variant.id
                        self.notify(guess.line(), timeout=8, markup=False)
                record = load_record(path, game_number - 1, default_variant)
            except OSError as exc:
                self.error_notice(
                    _("Cannot read {path}: {reason}").format(
                        path=shown_path(path), reason=os_reason(exc)
                    )
                )
                return
            if record is None:
                self.error_notice(
                    _("{file} has no game number {number}.").format(
                        file=path.name, number=game_number
                    )
                )
                self.push_screen(GameTableScreen(path, default_variant))
                return
            self.open_record(
                record,
                source=f"{path.name} #{game_number}",
                origin=Origin(path, game_number),
                review=review,
            )
            return
        self.push_screen(GameTableScreen(path, default_variant))

    def open_record(
        self,
        record: GameRecord,
        source: str = "",
        origin: Origin | None = None,
        *,
        review: bool = False,
    ) -> None:
        """Replay (and study) a record; a position without moves opens as a position to
        play.  ``origin``: where the game came from; a study of it whose changes were not
        saved is offered first.  ``review``: the review starts at once."""
        from ..store.studies import StudyAutosave, unsaved
        from .study import UnsavedStudyDialog

        if origin is not None and record.variant is not None:
            kept = unsaved(origin)
            if kept is not None:

                def answered(choice: str | None) -> None:
                    if choice == "restore":
                        self.open_replay(kept, source, origin, changed=True, review=review)
                        return
                    if choice == "discard":
                        StudyAutosave(origin).forget()
                    self.open_replay(record, source, origin, review=review)

                self.push_screen(UnsavedStudyDialog(), answered)
                return
        self.open_replay(record, source, origin, review=review)

    def open_replay(
        self,
        record: GameRecord,
        source: str,
        origin: Origin | None,
        *,
        changed: bool = False,
        review: bool = False,
    ) -> None:
        """The replay (the study) of ``record`` (``changed``: its study's unsaved state)."""
        from .replay import ReplayScreen

        if record.variant is None:
            self.error_notice(_("This game is of a variant shashki does not play."))
            return
        if not record.mainline_moves() and not record.errors:
            try:
                game = record.start()
            except ShashkiError as exc:  # a bad FEN
                self.error_notice(_("Cannot set up this position: {reason}").format(reason=exc))
                return
            self.take_over(game, (record.header("White"), record.header("Black")))
            return
        try:
            screen = ReplayScreen(record, source, origin, changed=changed, review=review)
        except ShashkiError as exc:  # its start position cannot be set up
            self.error_notice(_("Cannot replay this game: {reason}").format(reason=exc))
            return
        self.push_screen(screen)


__all__ = ["GameFiles"]
