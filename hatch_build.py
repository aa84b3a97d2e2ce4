"""Build hook: a wheel carries grammar/, templates/ and migrations/ inside ``bot``.

The design card keeps the three folders at the top of the repository; a
built wheel puts each at ``bot/_resources/<name>``, where ``bot/resources.py``
finds it with ``importlib.resources``.  An editable install gets no copies
(the ``force-include`` option would add stale duplicates to site-packages):
there ``bot/resources.py`` reads the checkout's own folders.
"""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

RESOURCES = ("grammar", "templates", "migrations")
PACKAGED = "bot/_resources"  # bot.resources.PACKAGED, inside the bot package


class PackageResources(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "standard":  # not "editable"
            build_data["force_include"].update({name: f"{PACKAGED}/{name}" for name in RESOURCES})
