"""Contests and Challenge/Response Games: A Nomic's rules 336-343 (seed 002), pure.

Standard library only, no clock and no randomness: instants come in with
the actions, and the engine carries out the points each step moves.

Rules and instances (``rules``)
    ``ContestDefinition`` (336's attributes: game name, Contestmaster title,
    period of duration, repetition, entry fee, first Contestmaster),
    ``SIMILARITY`` (337), ``POETRY`` (339), ``MEDIOCRITY`` (343),
    ``DEFINITIONS``, ``JUDGING_TIME`` (336's "like 2 days at most").

State (``state``, immutable)
    ``ContestsState`` of ``ContestState`` (Contestmaster, challenges,
    Mediocrity games); ``Challenge`` with its ``Answer``s (arrival time,
    content or sealed, fee, commitment) and ``Outcome``; ``MediocrityGame``.

The machinery (``challenges``)
    ``post_challenge``, ``submit_answer`` (one per player, not the
    Contestmaster, in the period, (entry fee)x2 points), ``close_period``
    (fewer than 2 answers: no winner, fees returned; else judging, or
    Mediocrity's computed winner), ``judge`` (the earliest of those judged
    most correct wins half the fees and is the next Contestmaster),
    ``mark_incomplete``, ``start_mediocrity``, ``overdue_judgements``.
    Each returns the new state and the ``Transfer``s to carry out.

Mediocrity (``mediocre``, ``mediocrity``)
    ``most_mediocre`` (343's balance, ties to the earliest entry),
    ``quantity_of``; the tree of sub-games (``sub_game_result``,
    ``concluded_by_last``, ``every_result``).

Text and storage (``render``, ``serialize``).
"""
