"""Playing a friend online on the game screen: hosting (``shashki host``, the new-game
dialog's "a friend online", the menu's "Play online") and joining (``shashki join``,
the menu).

The network runs on the app's own asyncio loop (aiohttp); the remote side is a
:class:`~shashki.online.player.RemotePlayer`, so the board takes no move for it and the
screen says the friend is to move.  Draw offers, takebacks (asked of the friend),
resignation, a chat line (m) and a claim of the game of a friend away for a minute (C)
go through the link; what the friend does arrives as a notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Input

from ..i18n import N_, _, error_line
from ..online.console import bind_address, host_session
from ..online.events import (
    ChatLine,
    ConnectionClosed,
    DrawOffer,
    GameOver,
    Info,
    LinkEvent,
    PeerAway,
    PeerJoined,
    PeerLeft,
    PeerMoved,
    Refused,
    Superseded,
    Synced,
    TakebackRequest,
)
from ..online.guest import Guest, GuestLink, JoinError
from ..online.host import Host, HostLink
from ..online.link import Link, online_headers
from ..online.protocol import CLAIM_AFTER, MAX_NAME, clean, new_code
from ..online.room import TAG, Room, forget_copies, plain_code, read_room, resumed_session
from ..records.clocks import TimeControl
from ..rules import Color
from ..session.players import Person
from ..session.served import JOIN_SECONDS, join_allowed, served
from .controller import Feedback, GameController, Said
from .dialogs import ConfirmScreen, TextPrompt
from .game_screen import GameScreen
from .launch import HostRequest, JoinRequest
from .plain import Plain, literal, visible
from .shell import Shell
from .widgets import Button, Dialog, relabel_button

if TYPE_CHECKING:
    from ..records.model import GameRecord
    from ..rules import Game
    from ..store import AutosaveSlot

#: The seat kind of the new-game dialog: a friend online (this side hosts).
ONLINE = "online"

#: The port a game hosted from the menu listens on.
DEFAULT_PORT = 8765


#: Seconds between a guest's tries to join again after its connection was lost.
REJOIN_EVERY = 3.0


class OnlineGameScreen(GameScreen):
    """The game screen of an online game: one side here, the friend's over the network."""

    BINDINGS = [
        *GameScreen.BINDINGS,
        Binding("m", "chat", N_("Chat")),
        Binding("C", "claim", N_("Claim the game"), key_display="C", show=False),
    ]

    def __init__(
        self,
        controller: GameController,
        link: Link,
        *,
        host: Host | None = None,
        guest: Guest | None = None,
        bind: tuple[str, str, int] = ("", "", 0),
        mode: str = "lan",
        exit_on_failure: bool = False,
        rejoin: tuple[str, str, str] | None = None,
    ) -> None:
        super().__init__(controller)
        self.link = link
        self.host = host
        self.guest = guest
        self.bind = bind
        #: How the host listens (``lan``, ``local``, ``public``: kept in the autosave).
        self.mode = mode
        self.exit_on_failure = exit_on_failure
        #: A guest's way back to the host: (address, code, name).
        self.rejoin = rejoin or (
            (guest.address, guest.code, guest.name) if guest is not None else None
        )
        #: The guest is trying to join again.
        self._rejoining = False
        #: The last reason a try to join again failed (said once).
        self._rejoin_said = ""
        self._left = False
        #: The host was told it may claim the game of a friend away.
        self._claim_said = False

    # -- the network -------------------------------------------------------------------------

    def on_mount(self) -> None:
        # (Textual runs GameScreen.on_mount after this one, for the same event)
        link = self.link
        self._unsubscribe = link.subscribe(self._link_event)
        if isinstance(link, HostLink):
            self.call_later(self._hold_clock)
            self.set_interval(1.0, self._check_away)
            self.run_worker(self._serve(), group="online")
        else:
            self.set_interval(1.0, self._check_away)
            if self.guest is not None:
                self.run_worker(self._read(self.guest), group="online")
            elif self.rejoin is not None:  # (resumed from its autosave: join again)
                self._start_rejoin(at_once=True)

    def _hold_clock(self) -> None:
        """Before the game's first move the clock waits for the friend to come (the game
        screen started it); once the game is under way it goes on, as the referee's does,
        across drops and crashes of either side."""
        link = self.link
        if (
            isinstance(link, HostLink)
            and link.guest is None
            and not self.controller.game.move_stack
        ):
            self.controller.session.stop_clock()
            self.refresh_panel()

    async def _serve(self) -> None:
        assert self.host is not None and isinstance(self.link, HostLink)
        bind, shown, port = self.bind
        try:
            port = await self.host.start(bind, port)
        except OSError as exc:
            message = _("Cannot listen on port {port}: {reason}").format(
                port=port, reason=exc.strerror or exc
            )
            if self.exit_on_failure:
                self.app.exit(return_code=2, message=message)
            else:
                self.shashki.error_notice(message)
            return
        self.link.address = f"{shown}:{port}"
        session = self.controller.session
        day = (session.base_headers or {}).get("Date")
        link = self.link
        room = Room(
            True, link.code, link.side, link.takebacks, port=port, mode=self.mode, game=link.game
        )
        # (the recorder autosaves the game again: its Site, and the way back to its room)
        session.retag(headers=online_headers(self.link.address, day), resume={TAG: room.tag()})
        address, code = self.link.address, self.link.code
        self.set_status(
            Said(
                lambda: _("Waiting for your friend: shashki join {address} {code}").format(
                    address=address, code=code
                )
            )
        )
        self.notify(
            _("Ask your friend to run: shashki join {address} {code}").format(
                address=address, code=code
            ),
            timeout=30,
            markup=False,
        )

    async def _read(self, guest: Guest) -> None:
        await guest.run()

    def _start_rejoin(self, at_once: bool = False) -> None:
        if self._rejoining or self._left or self.rejoin is None:
            return
        self._rejoining = True
        self.run_worker(self._rejoin(at_once), group="online")

    async def _rejoin(self, at_once: bool) -> None:
        """The guest's connection was lost (or the game was resumed from its autosave):
        join again with the code until the host answers, the game ends or the screen is
        left; the host's state then sets the game right."""
        assert self.rejoin is not None and isinstance(self.link, GuestLink)
        address, code, name = self.rejoin
        link = self.link
        try:
            wait = 0.0 if at_once else REJOIN_EVERY
            while not self._left and self.controller.session.outcome is None:
                if wait:
                    await asyncio.sleep(wait)
                wait = REJOIN_EVERY
                if self._left or self.controller.session.outcome is not None:
                    return
                try:
                    guest = Guest(address, code, name)
                    await guest.connect_again(link)
                except JoinError as exc:
                    if str(exc) != self._rejoin_said:  # (said once, not at every try)
                        self._rejoin_said = str(exc)
                        # (a served app says one thing whatever failed: no scanner's oracle)
                        unreachable = exc.unreachable or served()
                        self.set_status(
                            self._unreachable(link.remote.name) if unreachable else str(exc)
                        )
                    continue
                if self._left:
                    await guest.close()
                    return
                self.guest = guest
                self._rejoin_said = ""
                self._claim_said = False
                self.run_worker(self._read(guest), group="online")
                if link.game is not None:  # (this copy is the game: older ones go)
                    self.run_worker(
                        forget_older(self.shashki, link.game, self.shashki.autosave_key),
                        group="autosave",
                    )
                said = self._rejoined(link.remote.name)
                self._rejoin_words = said  # (said again once the host's state came)
                self.notify(said, timeout=8, markup=False)
                if self.controller.session.outcome is None:
                    self.controller.session.start_clock()
                self.set_status(said)
                self.refresh_panel()
                return
        finally:
            self._rejoining = False

    def _rejoined(self, name: str) -> Said:
        """What the guest's screen says once it joined the host again: back in the game,
        and whose move it is."""
        session = self.controller.session

        def said() -> str:
            if session.outcome is None and session.game.turn is self.link.side:
                return _("Rejoined the game with {name}: your move.").format(name=name)
            if session.outcome is None:
                return _("Rejoined the game: {name} is to move.").format(name=name)
            return _("Rejoined the game with {name}.").format(name=name)

        return Said(said)

    #: The words of a rejoining, said again when the host's state has come (it sets the
    #: status line of its own).
    _rejoin_words: Said | None = None

    @staticmethod
    def _unreachable(name: str) -> Said:
        return Said(lambda: _("{name} cannot be reached; trying again…").format(name=name))

    def _check_away(self) -> None:
        """Once the friend is away a minute, say that the game may be claimed."""
        link = self.link
        if (
            not self._claim_said
            and link.away_for() >= CLAIM_AFTER
            and self.controller.session.outcome is None
            and link.why_no_claim() is None
        ):
            self._claim_said = True
            name = link.remote.name
            said = Said(
                lambda: _("{name} has been away a minute: C claims the game.").format(name=name)
            )
            self.set_status(said)
            self.notify(said, timeout=15, markup=False)

    def _guest_came(self) -> None:
        self._claim_said = False
        if self.controller.session.outcome is None:
            self.controller.session.start_clock()
        self.refresh_panel()

    def _link_event(self, event: LinkEvent) -> None:
        name = self.link.remote.name
        match event:
            case PeerMoved():
                # (the move is shown as the session says it was played: the board goes
                # back to the game from the position looked at)
                self.back_to_game()
            case Synced():
                self.back_to_game()
                self.board.stop_jumps()
                said, self._rejoin_words = self._rejoin_words, None
                # (said anew: the host's state may have changed whose move it is)
                self.after(Feedback(message=Said(said.say)) if said is not None else Feedback())
            case ChatLine():
                self.notify(event.text, timeout=12, markup=False)
                self.set_status(event.text)
                for screen in self.app.screen_stack:
                    if isinstance(screen, ChatScreen):
                        screen.show_lines()  # (the chat open: the line shows there too)
            case PeerJoined():
                self._guest_came()
                self._tell(event)
            case Info() | PeerAway() | PeerLeft():
                self._tell(event)
            case Refused(reason=reason):  # (the peer's message quoted as the protocol says it)
                self.notify(
                    _("Refused from {name}: {text}").format(name=name, text=reason),
                    severity="warning",
                    timeout=8,
                    markup=False,
                )
            case DrawOffer():
                self.app.push_screen(
                    ConfirmScreen(
                        lambda: _("{name} offers a draw. Do you accept?").format(name=name)
                    ),
                    self._draw_answered,
                )
            case TakebackRequest():
                self.app.push_screen(
                    ConfirmScreen(
                        lambda: _("{name} asks to take back a move. Do you agree?").format(
                            name=name
                        )
                    ),
                    self._takeback_answered,
                )
            case GameOver():
                self.after(Feedback())
                self.show_game_over()  # (once: the session's end shows it too)
            case Superseded():  # (the game goes on in another shashki: this copy stops)
                self._left = True
                self.shashki.forget_autosave(self.controller)
                self.set_status(Said(lambda: event.text))
                self.notify(event.text, severity="warning", timeout=15, markup=False)
                self.refresh_panel()
            case ConnectionClosed() if not self._left and self.controller.session.outcome is None:
                said = Said(
                    lambda: _("Lost the connection to {name}; trying again…").format(name=name)
                )
                self.set_status(said)
                self.notify(said, severity="warning", timeout=12, markup=False)
                self.refresh_panel()
                self._start_rejoin()

    def _tell(self, event: LinkEvent) -> None:
        """A line of the link's: shown, and the friend's seat redrawn (it says whether the
        friend is there)."""
        said = Said(lambda: event.text)
        self.notify(event.text, timeout=8, markup=False)
        self.set_status(said)
        self.refresh_panel()

    def _draw_answered(self, ok: bool | None) -> None:
        self.link.answer_draw(bool(ok))
        self.after(Feedback())

    def _takeback_answered(self, ok: bool | None) -> None:
        self.link.answer_takeback(bool(ok))

    # -- the player's actions ---------------------------------------------------------------

    def action_draw(self) -> None:
        ctl = self.controller
        if ctl.session.outcome is not None:
            return
        if ctl.session.draw_offer is self.link.peer_side:
            self.link.answer_draw(True)
            return
        name = self.link.remote.name
        if self.link.offer_draw():
            self.set_status(Said(lambda: _("Draw offered to {name}.").format(name=name)))

    def action_undo(self) -> None:
        self.back_to_game()
        why = self.link.ask_takeback()
        name = self.link.remote.name
        if why is None:
            self.set_status(Said(lambda: _("Takeback asked of {name}.").format(name=name)))
        else:
            self.set_status(why)

    def action_redo(self) -> None:
        self.set_status(Said(lambda: _("Nothing to redo.")))

    def action_resign(self) -> None:
        if self.controller.session.outcome is not None:
            return

        def answered(ok: bool | None) -> None:
            if ok and self.controller.session.outcome is None:
                self.cancel_thinking()
                self.link.resign()
                self.after(Feedback())
                self.show_game_over()

        self.app.push_screen(ConfirmScreen(N_("Resign this game?")), answered)

    def action_chat(self) -> None:
        """The chat (m): both sides' lines so far, and a line to send."""

        def send(text: str) -> None:
            line = self.link.chat(text)
            if line:
                self.set_status(_("You: {text}").format(text=line))

        self.app.push_screen(ChatScreen(self.link, send))

    def action_claim(self) -> None:
        why = self.link.claim()
        if why is not None:
            self.set_status(why)
            return
        self.cancel_thinking()
        self.after(Feedback())
        self.show_game_over()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "redo":
            return None
        if action == "undo":
            return True if self.controller.session.outcome is None else None
        return super().check_action(action, parameters)

    # -- leaving ----------------------------------------------------------------------

    ABANDONS = False

    def _leave(self, question: str, then: Callable[[], object]) -> None:
        def leave() -> None:
            self._left = True
            self.run_worker(self._goodbye(then), group="leaving")

        super()._leave(question, leave)

    async def _goodbye(self, then: Callable[[], object]) -> None:
        await self.close_network()
        then()

    async def close_network(self) -> None:
        """Tell the friend, close the connection (and stop listening)."""
        self._left = True  # (nothing joins again)
        self.controller.session.close_players()
        if self.host is not None:
            await self.host.stop()
        if self.guest is not None:
            await self.guest.leave()

    def on_unmount(self) -> None:
        # (Textual runs GameScreen.on_unmount too, for the same event)
        if not self._left:  # (the app quit some other way: the friend is told if it can be)
            self._left = True
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self.close_network())


class ChatScreen(Dialog[None]):
    """The chat of an online game (m): every line kept so far, both sides', each with who
    said it (a peer's words shown as they are, never as markup), scrolled to the newest;
    Enter sends the line typed and the chat stays open, Esc closes it."""

    BINDINGS = [Binding("escape", "close", N_("Close"))]

    DEFAULT_CSS = """
    ChatScreen { align: center middle; }
    ChatScreen > Vertical {
        width: 72; max-width: 95%; height: 80%; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChatScreen #chat-title { text-style: bold; }
    ChatScreen #chat-lines { height: 1fr; }
    """

    def __init__(self, link: Link, send: Callable[[str], None]) -> None:
        super().__init__()
        self.link = link
        self.send = send

    def _title(self) -> str:
        return _("Chat with {name}").format(name=visible(self.link.remote.name))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self._title(), id="chat-title")
            with VerticalScroll(id="chat-lines"):
                yield Plain("", id="chat-text")
            yield Input(placeholder=self._hint(), id="chat-input")

    def _hint(self) -> str:
        return _("A line to {name}:").format(name=visible(self.link.remote.name))

    def lines(self) -> Text:
        """The chat so far: "You: …" and "Anna: …", one a line, the newest last."""
        text = Text()
        for entry in self.link.chat_log:
            if text:
                text.append("\n")
            who = _("You") if entry.mine else entry.name
            text.append_text(literal(who, "bold"))
            text.append(": ")
            text.append_text(literal(entry.line))
        if not text:
            text = Text(_("No lines yet: type one below and press Enter."), style="dim")
        return text

    def show_lines(self) -> None:
        try:
            self.query_one("#chat-text", Plain).update(self.lines())
            box = self.query_one("#chat-lines", VerticalScroll)
        except NoMatches:
            return
        box.call_after_refresh(box.scroll_end, animate=False)

    def retranslate(self) -> None:
        self.query_one("#chat-title", Plain).update(self._title())
        self.query_one("#chat-input", Input).placeholder = self._hint()
        self.show_lines()

    def on_mount(self) -> None:
        self.show_lines()
        self.query_one("#chat-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.send(text)
            self.show_lines()

    def action_close(self) -> None:
        self.dismiss(None)


class OnlineChoice(Dialog[bool | None]):
    """Play online: host (True) or join (False)."""

    DEFAULT_CSS = """
    OnlineChoice { align: center middle; }
    OnlineChoice > Vertical {
        width: 64; max-width: 95%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    OnlineChoice Horizontal { height: auto; align-horizontal: center; margin-top: 1; }
    OnlineChoice Button { margin: 0 1; }
    """

    BINDINGS = [
        Binding("h", "choose(True)", N_("Host")),
        Binding("j", "choose(False)", N_("Join")),
        Binding("escape", "cancel", N_("Cancel")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(_("Play online with a friend on another machine."), id="question")
            with Horizontal():
                yield Button(_("Host a game (h)"), id="host", variant="primary")
                yield Button(_("Join a game (j)"), id="join")

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(
            _("Play online with a friend on another machine.")
        )
        relabel_button(self, "#host", _("Host a game (h)"))
        relabel_button(self, "#join", _("Join a game (j)"))

    def on_mount(self) -> None:
        self.query_one("#host", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "host")

    def action_choose(self, host: bool) -> None:
        self.dismiss(host)

    def action_cancel(self) -> None:
        self.dismiss(None)


# -- opening an online game --------------------------------------------------------------------


def _open(
    app: Shell,
    controller: GameController,
    screen: OnlineGameScreen,
    slot: AutosaveSlot | None = None,
) -> None:
    """Show ``screen`` for ``controller``'s game, autosaved as any game (in ``slot``
    when it was resumed from one), this side's pieces at the bottom."""
    if controller.session.players[0].is_human is False:
        screen.board.flipped = True
    app.show_game(controller, screen, slot)


def host_game(
    app: Shell,
    variant: str,
    *,
    side: Color,
    name: str,
    clock: TimeControl | None,
    port: int = 8765,
    public: bool = False,
    local: bool = False,
    exit_on_failure: bool = False,
) -> GameController | None:
    """Host a game of ``variant`` (this side plays ``side``) and open its screen; not in
    an app served to a browser (None: a visitor opens no port on the owner's machine)."""
    if served():
        app.error_notice(host_refused())
        return None
    takebacks = app.settings.undo_policy != "off"
    session, remote = host_session(variant, side, name, Person(name), clock, takebacks=takebacks)
    if session.clock is not None:
        session.clock.now = app.clock_time
    link = HostLink(session, side, remote, new_code(), name=name)
    bind, shown = bind_address(public, local)
    controller = GameController(session)
    screen = OnlineGameScreen(
        controller,
        link,
        host=Host(link),
        bind=(bind, shown, port),
        mode="public" if public else "local" if local else "lan",
        exit_on_failure=exit_on_failure,
    )
    _open(app, controller, screen)
    return controller


def join_off() -> str:
    """Why a visitor of an app served to a browser cannot join (the owner did not allow
    it)."""
    return _(
        "Online play is off in the browser: the owner of this server can allow joining "
        "a game (shashki serve --allow-join)."
    )


def join_failed(address: str) -> str:
    """The one thing a served app says when a join fails, whatever failed."""
    return _("No game could be joined at {address}.").format(address=clean(address, 60))


async def _connect(guest: Guest) -> None:
    """Connect ``guest`` to its host; raises JoinError.  In an app served to a browser a
    join is a connection from the owner's machine to an address a visitor typed: every
    failure there (a closed port, an open one that is not a host, a host that says no,
    no answer) reads the same, after the same :data:`JOIN_SECONDS` — nothing tells one
    port from another."""
    if not served():
        await guest.connect()
        return
    started = time.monotonic()
    try:
        async with asyncio.timeout(JOIN_SECONDS):
            await guest.connect()
        return
    except Exception:  # (JoinError, the time out, anything: one answer)
        with contextlib.suppress(Exception):
            await guest.close()
    await asyncio.sleep(max(0.0, started + JOIN_SECONDS - time.monotonic()))
    raise JoinError(join_failed(guest.address))


async def join_game(
    app: Shell,
    address: str,
    code: str,
    name: str,
    *,
    exit_on_failure: bool = False,
    wait: float | None = None,
) -> GameController | None:
    """Join the game at ``address`` with ``code`` and open its screen; None (said in one
    line) when it cannot be joined, or when this app is served to a browser and its
    owner did not allow joining.  ``wait``: seconds for the host's answer (None: the
    usual)."""
    if not join_allowed():
        app.error_notice(join_off())
        return None
    try:
        guest = Guest(address, code, name, wait=wait)
        await _connect(guest)
    except JoinError as exc:
        if exit_on_failure:
            app.exit(return_code=2, message=error_line(exc))
        else:
            app.error_notice(str(exc))
        return None
    link = guest.make_link()
    session = link.session
    if session.clock is not None:
        session.clock.now = app.clock_time
    session.resume_tags[TAG] = Room(
        False, plain_code(code), link.side, link.takebacks, address=guest.address, game=link.game
    ).tag()
    if link.game is not None:  # (a copy of this game left by a shashki that died goes)
        await forget_older(app, link.game, None)
    controller = GameController(session)
    _open(app, controller, OnlineGameScreen(controller, link, guest=guest))
    return controller


async def forget_older(app: Shell, game: str, keep: str | None) -> None:
    """Remove the older autosaves of online game ``game`` but ``keep``'s (in a thread: it
    reads the autosave folder): one game has one autosave."""
    if app.autosave_enabled:
        await asyncio.to_thread(forget_copies, game, keep)


def resume_online(
    app: Shell, record: GameRecord, game: Game, slot: AutosaveSlot
) -> GameController | None:
    """Go on with an online game of the autosave folder: host it again with the same
    code and port (the friend joins again, or its shashki does by itself), or join the
    host again.  None (said in one line) when the autosave names no room that can be
    used: the caller goes on with the game at this keyboard."""
    room = read_room(record.header(TAG))
    if room is None:
        app.notify(
            _("This game's online room cannot be read: it goes on at this keyboard."),
            severity="warning",
            timeout=10,
            markup=False,
        )
        return None
    if served() and (room.hosting or not join_allowed()):  # (no port opened, none joined)
        app.notify(
            _("An app in a web browser does not play online: this game goes on at this keyboard."),
            severity="warning",
            timeout=10,
            markup=False,
        )
        return None
    session, remote = resumed_session(record, game, room, now=app.clock_time)
    controller = GameController(session)
    if room.hosting:
        mode = room.mode
        if mode == "public":  # (a file never opens every network: --public is asked for)
            mode = "lan"
            app.notify(
                _(
                    "Hosting again on this machine's own address only: "
                    "every network only with shashki host --public."
                ),
                timeout=10,
                markup=False,
            )
        link = HostLink(
            session,
            room.side,
            remote,
            room.code,
            name=session.players[room.side].name,
            game=room.game,
        )
        link.joined = True  # (the guest keeps the name it joined with)
        link.away_since = link.now()  # (a friend who does not come back may be claimed)
        bind, shown = bind_address(False, mode == "local")
        screen = OnlineGameScreen(
            controller, link, host=Host(link), bind=(bind, shown, room.port), mode=mode
        )
    else:
        glink = GuestLink(session, room.side, remote, game=room.game)
        glink.away_since = glink.now()
        name = session.players[room.side].name
        screen = OnlineGameScreen(controller, glink, rejoin=(room.address, room.code, name))
    _open(app, controller, screen, slot)
    return controller


def start_from_command(app: Shell, start: HostRequest | JoinRequest) -> None:
    """Open the game ``shashki host`` or ``shashki join`` asked for."""
    if isinstance(start, HostRequest):
        host_game(
            app,
            start.variant,
            side=start.side,
            name=start.name,
            clock=start.clock,
            port=start.port,
            public=start.public,
            local=start.local,
            exit_on_failure=True,
        )
    else:
        app.run_worker(
            join_game(
                app, start.address, start.code, start.name, exit_on_failure=True, wait=start.wait
            )
        )


def player_name(app: Shell) -> str:
    """This player's name: the first name typed in the new-game dialog, else the
    login name."""
    import os

    names = [n for n in app.settings.names if n and n not in ("White", "Black")]
    name = names[0] if names else os.environ.get("USER", "")
    return clean(name, MAX_NAME) or _("Player")


def join_dialog(app: Shell) -> None:
    """Ask for the host's address, then the room code, then join."""

    def got_address(address: str | None) -> None:
        if not address:
            return

        def got_code(code: str | None) -> None:
            if code:
                app.run_worker(join_game(app, address, code, player_name(app)))

        app.push_screen(TextPrompt(N_("The room code (e.g. K7WQ-M2):")), got_code)

    app.push_screen(
        TextPrompt(N_("The host's address, as it printed it (e.g. 192.168.1.20:8765):")),
        got_address,
    )


def host_refused() -> str:
    """Why a visitor of an app served to a browser cannot host."""
    return _(
        "An app in a web browser cannot host a game (it would open a port on the machine "
        "that serves it): join a friend's game instead."
    )


def online_menu(app: Shell, variant: str | None) -> None:
    """Play online: host a game of ``variant`` (the new-game dialog, a friend's seat
    chosen) or join one.  An app served to a browser never hosts: it joins (asked for
    the address at once) when its owner allowed it, else it says that online play is
    off."""
    if served():
        if join_allowed():
            join_dialog(app)
        else:
            app.error_notice(join_off())
        return

    def chosen(host: bool | None) -> None:
        if host is None:
            return
        if not host:
            join_dialog(app)
            return
        if variant is None:
            app.error_notice(_("Pick a variant in the menu first."))
            return
        from ..rules import find_variant
        from .menu import NewGameScreen

        dialog = NewGameScreen(find_variant(variant))
        app.push_screen(dialog)

        def seat_friend() -> None:
            with contextlib.suppress(Exception):
                dialog.query_one("#kind1").value = ONLINE  # type: ignore[attr-defined]

        dialog.call_after_refresh(seat_friend)

    app.push_screen(OnlineChoice(), chosen)


def host_from_dialog(
    app: Shell,
    variant: str,
    names: tuple[str, str],
    kinds: tuple[str, str],
    clock: TimeControl | None,
) -> None:
    """The new-game dialog seated a friend online: host the game, this side the other."""
    friend = Color.BLACK if kinds[1] == ONLINE else Color.WHITE
    side = Color(1 - friend)
    name = clean(names[side], MAX_NAME) or _("Player")
    host_game(app, variant, side=side, name=name, clock=clock, port=DEFAULT_PORT)


__all__ = [
    "ONLINE",
    "OnlineGameScreen",
    "host_from_dialog",
    "host_game",
    "join_failed",
    "join_game",
    "join_off",
    "online_menu",
    "resume_online",
    "start_from_command",
]
