"""Outbound mail: composing replies and delivering committed outbox rows."""
