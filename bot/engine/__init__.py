"""The engine: one unit of work per message, in arrival order."""
