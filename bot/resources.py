"""Where the grammar, the mail templates and the migrations are read from.

The design card keeps ``grammar/``, ``templates/`` and ``migrations/`` at the
top of the repository.  A wheel built from it carries them inside the
package, as ``bot/_resources/<name>`` (``hatch_build.py``), found here with
``importlib.resources``; a checkout or an editable install has no
``bot/_resources`` and reads the top-level folders next to ``bot/``.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path
from typing import Literal

Resource = Literal["grammar", "templates", "migrations"]
# The folder of the ``bot`` package that a built wheel puts them in; hatch_build.py
# writes the same name (it cannot import the package it is building).
PACKAGED = "_resources"
CHECKOUT = Path(__file__).resolve().parents[1]


@functools.cache
def resource_directory(name: Resource) -> Path:
    """The folder holding ``name``, installed or in the checkout.

    Raises FileNotFoundError if neither place has it, or if the package was
    installed where its files are not plain files (a zip): Lark, Jinja and
    Alembic all read from a real directory.
    """
    packaged = files("bot").joinpath(PACKAGED, name)
    if packaged.is_dir():
        if not isinstance(packaged, Path):
            raise FileNotFoundError(f"nomicbot's {name}/ is not a directory on disk: {packaged}")
        return packaged
    checkout = CHECKOUT / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"nomicbot's {name}/ is neither in the installed package ({packaged}) "
        f"nor in a checkout ({checkout}); reinstall nomicbot"
    )
