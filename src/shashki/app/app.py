"""The Textual application: settings, themes, and the way between menu, games and dialogs."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.screen import Screen

from ..rules import Color, Game
from ..rules.variant import Variant, find_variant
from .controller import GameController, UndoPolicy
from .dialogs import ConfirmScreen, TextPrompt
from .menu import MenuScreen
from .players import make_player, seat

if TYPE_CHECKING:
    from ..records import GameRecord


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "shashki"


@dataclass
class Settings:
    piece_set: str = "unicode"
    coords: bool = True
    board_theme: str = "classic"
    bell: bool = False
    undo_policy: str = "free"
    autoflip: bool = False
    names: list[str] = field(default_factory=lambda: ["", ""])

    @classmethod
    def load(cls, path: Path) -> Settings:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
            settings = cls(**known)
        except (OSError, ValueError, TypeError):
            settings = cls()
        if os.environ.get("NO_COLOR") and settings.piece_set == "unicode":
            settings.piece_set = "contrast"
        return settings

    def save(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # settings are a convenience: never fail a game over them


BOARD_CSS = """
BoardWidget > .board--light { background: #e9dcc0; }
BoardWidget > .board--dark { background: #8b6a43; color: #f3ead8; }
BoardWidget > .piece--white { color: #fffdf6; text-style: bold; }
BoardWidget > .piece--black { color: #141010; text-style: bold; }
BoardWidget > .piece--neutral { color: #ffd166; text-style: bold; }
BoardWidget > .board--cursor { background: #2f6fb3; }
BoardWidget > .board--selected { background: #3f9a52; }
BoardWidget > .board--dest { background: #5f8a36; }
BoardWidget > .board--waypoint { background: #7a7a32; }
BoardWidget > .board--must { background: #b4493b; }
BoardWidget > .board--last { background: #a9874d; }
BoardWidget > .board--route { background: #4f9a6a; }
BoardWidget > .board--ghost { text-style: dim strike; }
BoardWidget > .board--frozen { text-style: dim; }
BoardWidget > .board--coord { color: $text-muted; background: $background; }
BoardWidget > .board--number { color: #e2d2ae; }
BoardWidget > .board--small { color: $warning; background: $background; text-style: bold; }

BoardWidget.-theme-green > .board--light { background: #eeeed2; }
BoardWidget.-theme-green > .board--dark { background: #4f7a3a; }
BoardWidget.-theme-green > .piece--black { color: #c0141c; }
BoardWidget.-theme-green > .board--last { background: #8fa33f; }
BoardWidget.-theme-green > .board--number { color: #eeeed2; }

BoardWidget.-theme-contrast > .board--light { background: #ffffff; }
BoardWidget.-theme-contrast > .board--dark { background: #000000; color: #ffffff; }
BoardWidget.-theme-contrast > .piece--white { color: #ffffff; text-style: bold; }
BoardWidget.-theme-contrast > .piece--black { color: #ff3030; text-style: bold; }
BoardWidget.-theme-contrast > .piece--neutral { color: #ffff00; text-style: bold; }
BoardWidget.-theme-contrast > .board--cursor { background: #0050ff; }
BoardWidget.-theme-contrast > .board--selected { background: #00a000; }
BoardWidget.-theme-contrast > .board--dest { background: #006000; }
BoardWidget.-theme-contrast > .board--waypoint { background: #606000; }
BoardWidget.-theme-contrast > .board--must { background: #c00000; }
BoardWidget.-theme-contrast > .board--last { background: #505050; }
BoardWidget.-theme-contrast > .board--route { background: #008080; }
BoardWidget.-theme-contrast > .board--number { color: #ffff00; }

BoardWidget.-theme-ansi > .board--light { background: ansi_white; }
BoardWidget.-theme-ansi > .board--dark { background: ansi_black; color: ansi_bright_white; }
BoardWidget.-theme-ansi > .piece--white { color: ansi_bright_white; text-style: bold; }
BoardWidget.-theme-ansi > .piece--black { color: ansi_bright_red; text-style: bold; }
BoardWidget.-theme-ansi > .piece--neutral { color: ansi_bright_yellow; text-style: bold; }
BoardWidget.-theme-ansi > .board--cursor { background: ansi_blue; }
BoardWidget.-theme-ansi > .board--selected { background: ansi_green; }
BoardWidget.-theme-ansi > .board--dest { background: ansi_cyan; }
BoardWidget.-theme-ansi > .board--waypoint { background: ansi_yellow; }
BoardWidget.-theme-ansi > .board--must { background: ansi_red; }
BoardWidget.-theme-ansi > .board--last { background: ansi_bright_black; }
BoardWidget.-theme-ansi > .board--route { background: ansi_magenta; }
BoardWidget.-theme-ansi > .board--number { color: ansi_yellow; }
"""


class ShashkiApp(App[None]):
    """shashki in the terminal."""

    TITLE = "shashki"
    CSS = BOARD_CSS
    BOARD_THEMES = ("classic", "green", "contrast", "ansi")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(
        self,
        *,
        variant: Variant | str | None = None,
        fen: str | None = None,
        kinds: tuple[str, str] = ("human", "human"),
        replay: Path | None = None,
        game_number: int | None = None,
        default_variant: str | None = None,
        settings_path: Path | None = None,
        autosave: bool = True,
        offer_resume: bool = True,
    ) -> None:
        super().__init__()
        self.settings_path = settings_path or (config_dir() / "settings.json")
        self.settings = Settings.load(self.settings_path)
        self.autosave_enabled = autosave
        self.offer_resume = offer_resume
        self._direct = (find_variant(variant) if variant is not None else None, fen)
        self._direct_kinds = kinds
        self._replay = (replay, game_number, default_variant)
        self.controller: GameController | None = None
        self.theme = "textual-dark"
        self._autosave_lock = threading.Lock()
        self._autosave_next: tuple[tuple[Game, dict[str, str]] | None] | None = None
        self._autosave_busy = False
        self._autosave_timer: object = None

    # -- settings ----------------------------------------------------------------------

    def save_settings(self) -> None:
        self.settings.save(self.settings_path)

    def next_board_theme(self) -> None:
        themes = self.BOARD_THEMES
        current = self.settings.board_theme if self.settings.board_theme in themes else themes[0]
        self.settings.board_theme = themes[(themes.index(current) + 1) % len(themes)]
        self.save_settings()

    # -- flow ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        variant, fen = self._direct
        if variant is not None:
            self.start_game(variant, fen=fen, kinds=self._direct_kinds)
            return
        self.push_screen(MenuScreen())
        replay, number, default = self._replay
        if replay is not None:
            self.open_game_file(Path(replay), number, default)
            return
        if self.offer_resume and self.autosave_enabled:
            self._offer_resume()

    def _offer_resume(self) -> None:
        try:
            from ..records import load_autosave

            record = load_autosave()
        except Exception:
            record = None
        if record is None:
            return
        try:
            game = record.end().replay()
        except Exception:
            game = None
        if game is None or game.outcome() is not None:
            return
        names = (
            record.header("White") or game.variant.side_names[0],
            record.header("Black") or game.variant.side_names[1],
        )
        moves = (len(game.move_stack) + 1) // 2
        kinds = (seat_kind(record, "White"), seat_kind(record, "Black"))

        def answered(ok: bool | None) -> None:
            if ok:
                self.resume_game(game, names, kinds)

        self.push_screen(
            ConfirmScreen(
                f"Resume your unfinished game of {game.variant.name} "
                f"({moves} move{'' if moves == 1 else 's'}, {names[0]} v {names[1]})?"
            ),
            answered,
        )

    def open_menu(self) -> None:
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.push_screen(MenuScreen())

    def start_game(
        self,
        variant: Variant | str,
        *,
        names: tuple[str, str] | None = None,
        kinds: tuple[str, str] = ("human", "human"),
        start: str | None = None,
        seed: int | None = None,
        flip: bool = False,
        fen: str | None = None,
    ) -> GameController:
        v = find_variant(variant)
        game = Game(v, fen) if fen else Game(v, start=start, seed=seed)
        names = names or (v.side_names[0], v.side_names[1])
        return self._play(game, names, kinds, flip)

    def resume_game(
        self, game: Game, names: tuple[str, str], kinds: tuple[str, str] = ("human", "human")
    ) -> GameController:
        return self._play(game, names, kinds, False)

    def _play(
        self, game: Game, names: tuple[str, str], kinds: tuple[str, str], flip: bool
    ) -> GameController:
        players = (make_player(kinds[0], names[0]), make_player(kinds[1], names[1]))
        try:
            policy = UndoPolicy(self.settings.undo_policy)
        except ValueError:
            policy = UndoPolicy.FREE
        controller = GameController(game, players, undo_policy=policy, on_change=self._changed)
        self.controller = controller
        from .game_screen import GameScreen

        screen = GameScreen(controller, autoflip=self.settings.autoflip)
        # a human alone against the computer sees the board from his own side
        if flip or (not players[0].is_human and players[1].is_human):
            screen.board.flipped = True
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        self.push_screen(screen)
        self._changed(controller)
        return controller

    def headers(self, controller: GameController) -> dict[str, str]:
        v = controller.variant
        game = controller.game
        out = controller.outcome
        headers = {
            "Event": "shashki game",
            "Site": "shashki",
            "Date": date.today().strftime("%Y.%m.%d"),
            "Round": "-",
            "White": controller.players[0].name,
            "Black": controller.players[1].name,
            "Result": out.result() if out is not None else "*",
        }
        # who sat where (PDN's WhiteType/BlackType), so that a resumed game seats the
        # computer again
        for side, player in zip(("White", "Black"), controller.players, strict=True):
            level = getattr(player, "level", None)
            headers[f"{side}Type"] = "human" if player.is_human else "program"
            if not player.is_human and isinstance(level, int):
                headers[f"{side}Level"] = str(level)
        if game.start_label:
            headers["StartOption"] = game.start_label
        if game.seed is not None:
            headers["LotSeed"] = str(game.seed)
        if out is not None:
            headers["Termination"] = out.describe(v.side_names)
        return headers

    def _changed(self, controller: GameController) -> None:
        """Autosave after every change, in a background thread: the board never waits
        for the disk, and only the newest state is written."""
        if not self.autosave_enabled:
            return
        if controller.outcome is not None:
            job: tuple[Game, dict[str, str]] | None = None
        elif controller.game.move_stack:
            job = (controller.game.copy(), self.headers(controller))
        else:
            return
        with self._autosave_lock:
            self._autosave_next = (job,)
        # wait until the board has been redrawn: the writing must not delay it
        if self._autosave_timer is None:
            try:
                self._autosave_timer = self.set_timer(0.25, self._kick_autosave)
            except Exception:
                self._kick_autosave()

    def _kick_autosave(self) -> None:
        self._autosave_timer = None
        with self._autosave_lock:
            if self._autosave_busy or self._autosave_next is None:
                return
            self._autosave_busy = True
        threading.Thread(target=self._autosave_loop, name="shashki-autosave", daemon=True).start()

    def on_unmount(self) -> None:
        """However the app ends, the newest state is autosaved first."""
        self.flush_autosave()

    def _autosave_loop(self) -> None:
        from ..records import GameRecord, autosave, clear_autosave

        while True:
            with self._autosave_lock:
                pending = self._autosave_next
                self._autosave_next = None
                if pending is None:
                    self._autosave_busy = False
                    return
            (job,) = pending
            try:
                if job is None:
                    clear_autosave()
                else:
                    game, headers = job
                    autosave(GameRecord.from_game(game, headers))
            except Exception as exc:
                try:
                    self.call_from_thread(
                        self.notify, f"Autosave failed: {exc}", severity="warning", timeout=5
                    )
                except RuntimeError:  # the app has gone
                    pass

    def flush_autosave(self, timeout: float = 5.0) -> None:
        """Wait until the newest state is on disk (before quitting, and in tests)."""
        import time

        self._kick_autosave()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._autosave_lock:
                if not self._autosave_busy and self._autosave_next is None:
                    return
            time.sleep(0.01)

    def _record(self, controller: GameController):  # type: ignore[no-untyped-def]
        from ..records import GameRecord

        return GameRecord.from_game(controller.game, self.headers(controller))

    def save_game_dialog(self, controller: GameController) -> None:
        from ..records import data_dir, save_pdn

        folder = data_dir() / "games"
        default = folder / f"{controller.variant.id}-{date.today().isoformat()}.pdn"

        def chosen(name: str | None) -> None:
            if not name:
                return
            path = Path(name).expanduser()
            if not path.is_absolute():
                path = folder / path
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save_pdn(path, [self._record(controller)])
            except (OSError, ValueError) as exc:
                self.notify(
                    f"Could not save: {exc}. The game is still here.", severity="error", timeout=8
                )
                return
            self.notify(f"Saved to {path}")

        self.push_screen(TextPrompt("Save the game as (PDN file):", str(default)), chosen)

    def open_game_dialog(self) -> None:
        """Choose a PDN file (starting in the saved-games folder) and open it."""
        from ..records import data_dir
        from .replay import FileChooserScreen

        folder = data_dir() / "games"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path.home()

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_game_file(path)

        self.push_screen(FileChooserScreen(folder), chosen)

    def open_game_file(
        self, path: Path, game_number: int | None = None, default_variant: str | None = None
    ) -> None:
        """The table of a file's games (or the one game asked for) in the replay viewer."""
        from ..rules.userfiles import open_regular
        from .replay import GameTableScreen, load_record

        try:  # a folder, a FIFO or a device is refused at once, without blocking
            open_regular(path).close()
        except OSError as exc:
            reason = "no such file" if isinstance(exc, FileNotFoundError) else exc.strerror
            self.notify(f"Cannot read {path}: {reason or exc}", severity="error", timeout=8)
            return
        if game_number is not None:
            try:
                record = load_record(path, game_number - 1, default_variant)
            except OSError as exc:
                self.notify(
                    f"Cannot read {path}: {exc.strerror or exc}", severity="error", timeout=8
                )
                return
            if record is None:
                self.notify(
                    f"{path.name} has no game number {game_number}.", severity="error", timeout=8
                )
                self.push_screen(GameTableScreen(path, default_variant))
                return
            self.open_record(record, source=f"{path.name} #{game_number}")
            return
        self.push_screen(GameTableScreen(path, default_variant))

    def open_record(self, record, source: str = "") -> None:  # type: ignore[no-untyped-def]
        """Replay a record; a position without moves opens as a position to play."""
        from .replay import ReplayScreen

        if record.variant is None:
            self.notify(
                "This game is of a variant shashki does not play.", severity="error", timeout=8
            )
            return
        if not record.mainline_moves() and not record.errors:
            try:
                game = record.start()
            except Exception as exc:
                self.notify(f"Cannot set up this position: {exc}", severity="error", timeout=8)
                return
            names = (
                record.header("White") or game.variant.side_names[0],
                record.header("Black") or game.variant.side_names[1],
            )
            self.take_over(game, names)
            return
        try:
            screen = ReplayScreen(record, source)
        except Exception as exc:
            self.notify(f"Cannot replay this game: {exc}", severity="error", timeout=8)
            return
        self.push_screen(screen)

    def take_over(self, game: Game, names: tuple[str, str]) -> GameController:
        """A live game from a replayed position, its record kept up to there."""
        v = game.variant
        names = (names[0] or v.side_names[0], names[1] or v.side_names[1])
        players = (make_player("human", names[0]), make_player("human", names[1]))
        try:
            policy = UndoPolicy(self.settings.undo_policy)
        except ValueError:
            policy = UndoPolicy.FREE
        controller = GameController(game, players, undo_policy=policy, on_change=self._changed)
        self.controller = controller
        from .game_screen import GameScreen

        self.push_screen(GameScreen(controller, autoflip=self.settings.autoflip))
        return controller

    def continue_record(self, record) -> None:  # type: ignore[no-untyped-def]
        """Continue a recorded game from its last good move."""
        try:
            game = record.end().replay()
        except Exception as exc:
            self.notify(f"Cannot replay this game: {exc}", severity="error", timeout=8)
            return
        if not record.ok:
            first = record.errors[0] if getattr(record, "errors", None) else None
            self.notify(
                f"The record has an error; continuing after the last good move. {first or ''}",
                severity="warning",
                timeout=10,
            )
        names = (
            record.header("White") or game.variant.side_names[0],
            record.header("Black") or game.variant.side_names[1],
        )
        self.resume_game(game, names)
        if game.outcome() is not None:
            self.notify(
                "This game is already over: " + game.outcome().describe(game.variant.side_names),
                timeout=8,
            )

    # -- the command palette reaches every action --------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:  # type: ignore[type-arg]
        yield from super().get_system_commands(screen)
        from .game_screen import GameScreen

        if isinstance(screen, GameScreen):
            for binding in screen.BINDINGS:
                b = binding if not isinstance(binding, tuple) else None
                if b is None or b.action.startswith("cursor") or b.action.startswith("next"):
                    continue
                key = b.key_display or b.key.split(",")[0]  # "?" and ":", not "question_mark"
                yield SystemCommand(
                    b.description,
                    f"{b.description} ({key})",
                    lambda a=b.action: screen.run_action(a),
                )


def seat_kind(record: GameRecord, side: str) -> str:
    """The player kind a saved game's tags give one side (a person unless they name one
    of the computer's levels)."""
    if record.header(f"{side}Type").lower() != "program":
        return "human"
    return seat(record.header(f"{side}Level")) or "human"


def run(
    variant: str | None = None,
    fen: str | None = None,
    *,
    kinds: tuple[str, str] = ("human", "human"),
    replay: str | None = None,
    game_number: int | None = None,
    default_variant: str | None = None,
    mouse: bool = True,
) -> None:
    app = ShashkiApp(
        variant=variant,
        fen=fen,
        kinds=kinds,
        replay=Path(replay) if replay else None,
        game_number=game_number,
        default_variant=default_variant,
    )
    app.run(mouse=mouse)
    app.flush_autosave()


__all__ = ["Color", "ShashkiApp", "run"]
