"""The public web site: every game's state and history, from public information only."""

from __future__ import annotations

from bot.site.build import SiteError, build_site, rebuild
from bot.site.incremental import BuildReport, IncrementalBuilder

__all__ = ["BuildReport", "IncrementalBuilder", "SiteError", "build_site", "rebuild"]
