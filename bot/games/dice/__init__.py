r"""Verifiable dice and recorded randomness (B Nomic rule 9, seed 004).

Rule 9: random determinations are made "among all the possible choices with
equal probability", and "Dice rolls may be specified in the form xdy".  The
bot rolls for players, and anyone can check every roll from the public
archive once the nweek's seed is revealed.

Derivation, version 1
=====================

1. Each nweek has a seed: ``seed = HMAC-SHA256(key=master_secret,
   msg="nomicbot nweek seed v1\n" + decimal nweek)``, 32 bytes, where nweek is
   the zero-based Clock value (the nweek displayed as 14 is nweek 13).
2. At the start of the nweek the bot publishes the commitment
   ``SHA-256(seed)`` as lowercase hex, hashing the 32 raw seed bytes (not
   their hex text).  When the nweek ends it reveals ``seed`` as 64 lowercase
   hex digits.  Anyone checks ``sha256(bytes.fromhex(seed_hex))`` against the
   commitment.
3. A label names one independent stream of bytes from the seed:
   ``HMAC-SHA256(seed, label + "\n0") || HMAC-SHA256(seed, label + "\n1") || ...``
   (block numbers in decimal, UTF-8 throughout).

   * A roll: ``"nomicbot dice v1\nroll\n" + message_id + "\n" + action_index``,
     where message_id is the post's Message-ID stripped of surrounding
     whitespace and of one pair of angle brackets, and action_index is the
     action's place among all the actions of the post, counting from 0 after
     repeats ("I pass. I roll 1d6 twice" rolls as actions 1 and 2).  A
     player's ruling prints ``[verify: ... dice-v2 ... action=N]`` with N =
     index + 1, the item number the roll is ruled under ("I roll 1d6 twice"
     after "I pass": items 2 and 3); older rulings, and reports such as the
     Ballot's rewards (whose index is the proposal's serial number), print
     ``dice-v1 ... action=index``.  Both verify (``nomicbot verify-dice``).
   * A game draw: ``"nomicbot dice v1\ndraw\n" + context_id + "\n" + number``,
     where number counts the draws in that context from 0.
4. An integer below n: take k = max(1, ceil(bitlength(n - 1) / 8)) bytes of
   the stream as a big-endian number x; if x < 256^k - (256^k mod n) the
   result is x mod n, otherwise discard them and take the next k bytes.
   This rejection makes every result exactly equally likely.
5. A roll of xdy is x such integers below y, each plus one, in order.  A
   choice among n options is the option at index (integer below n); a randint
   from lo to hi is lo + (integer below hi - lo + 1); a shuffle of n items is
   Fisher-Yates from the last position down, position i swapping with
   position (integer below i + 1).

Reference implementation (the tests run this very text against the package)::

    import hashlib
    import hmac

    def nweek_seed(master_secret, nweek):
        message = f"nomicbot nweek seed v1\n{nweek}".encode()
        return hmac.new(master_secret, message, hashlib.sha256).digest()

    def commitment(seed):
        return hashlib.sha256(seed).hexdigest()

    def stream(seed, label):
        block = 0
        while True:
            message = f"{label}\n{block}".encode()
            yield from hmac.new(seed, message, hashlib.sha256).digest()
            block += 1

    def below(source, n):
        size = max(1, ((n - 1).bit_length() + 7) // 8)
        limit = 256**size - 256**size % n
        while True:
            x = int.from_bytes(bytes(next(source) for _ in range(size)), "big")
            if x < limit:
                return x % n

    def roll(seed, message_id, action_index, count, faces):
        source = stream(seed, f"nomicbot dice v1\nroll\n{message_id}\n{action_index}")
        return [below(source, faces) + 1 for _ in range(count)]

    def shuffle_order(seed, context_id, number, n):
        source = stream(seed, f"nomicbot dice v1\ndraw\n{context_id}\n{number}")
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = below(source, i + 1)
            order[i], order[j] = order[j], order[i]
        return order

Which nweek's seed a roll uses is the engine's choice (the nweek in which the
action is implemented, rule 3 B); the ruling prints ``Roll.proof``.
"""

from bot.games.dice.draws import Draw, DrawKind, DrawSource, replay_draw
from bot.games.dice.proofs import draw_proof
from bot.games.dice.rolls import (
    Roll,
    VerifyOutcome,
    VerifyResult,
    normalise_message_id,
    roll,
    verify_roll,
)
from bot.games.dice.seeds import commitment, nweek_seed, reveal, seed_from_hex
from bot.games.dice.spec import DiceSpec
from bot.games.dice.stream import draw_below

__all__ = [
    "DiceSpec",
    "Draw",
    "DrawKind",
    "DrawSource",
    "Roll",
    "VerifyOutcome",
    "VerifyResult",
    "commitment",
    "draw_below",
    "draw_proof",
    "normalise_message_id",
    "nweek_seed",
    "replay_draw",
    "reveal",
    "roll",
    "seed_from_hex",
    "verify_roll",
]
