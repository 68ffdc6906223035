"""The error of a Hub engine (or peer) that cannot be used, in one line: English in
``str()`` (match records keep it), in the language spoken by :meth:`EngineError.said`."""

from __future__ import annotations

from collections.abc import Sequence

from ...i18n import N_, _
from ...rules.errors import ShashkiError
from ...rules.variant import Variant


class EngineError(ShashkiError):
    """The engine stopped, did not answer in time, or answered something unusable.

    ``str()`` is the English sentence (match records keep it); :meth:`said` is the
    same in the language spoken now (the app tells a player)."""

    def __init__(self, template: str, *, stderr: Sequence[str] = (), **values: object) -> None:
        self.template = template
        self.values = values
        #: The last lines the engine wrote on its standard error (plain text).
        self.stderr = list(stderr)
        super().__init__(self._text(local=False))

    def _text(self, *, local: bool) -> str:
        say = _ if local else str
        text = say(self.template).format(**self._named(self.values, local=local))
        if self.stderr:
            text += say(N_("; its standard error ends: {lines}")).format(
                lines=" | ".join(self.stderr)
            )
        return text

    @staticmethod
    def _named(values: dict[str, object], *, local: bool) -> dict[str, object]:
        """The values, a variant by its name (in the language spoken, if ``local``)."""
        return {
            k: (v.local_name if local else v.name) if isinstance(v, Variant) else v
            for k, v in values.items()
        }

    def said(self) -> str:
        return self._text(local=True)


__all__ = ["EngineError"]
