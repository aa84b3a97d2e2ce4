"""Persistence: SQLAlchemy 2.0 typed models and the engine/session factory."""
