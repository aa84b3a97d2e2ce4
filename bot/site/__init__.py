"""The public web site: every game's state and history, from public information only."""

from __future__ import annotations

from bot.site.build import SiteError, build_site, rebuild

__all__ = ["SiteError", "build_site", "rebuild"]
