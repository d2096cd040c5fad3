"""The editions of Pi's pages (PI-DECISION-EDITIONS): their names, which a caller that judges by an
edition passes explicitly. What the 1.6.0 pages change in the message types is
:mod:`reference.pi.core.message_editions`, kept apart so that the other rules do not build the
message models."""

from __future__ import annotations

PI_0994 = "pi-0.99.4"
PI_160 = "pi-1.6.0"
EDITIONS = (PI_0994, PI_160)


def check_edition(edition: str | None) -> str:
    """``edition`` (``None``: ``pi-0.99.4``, the default) when it is one of :data:`EDITIONS`
    (``pi-1.6.0`` is the copy of the same pages in Pi 1.6.0's npm package, PI-DECISION-EDITIONS).

    Raises ``ValueError`` naming the editions otherwise."""
    name = edition or PI_0994
    if name not in EDITIONS:
        raise ValueError(f"unknown edition {name!r} of Pi's pages; the editions are {', '.join(EDITIONS)}")
    return name


def honours_replace(edition: str | None) -> bool:
    """Whether ``replace: true`` on a system message starts a new baseline in ``edition``: only
    in ``pi-0.99.4``; the 1.6.0 page drops the field (PI-160-MSG-SYSTEM-NO-REPLACE).

    Raises ``ValueError`` for an unknown edition."""
    return check_edition(edition) == PI_0994
