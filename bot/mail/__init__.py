"""Decoding raw list posts into text the referee can read.

``decode.decode_message`` turns raw bytes into a ``DecodedMessage`` (headers,
addresses, dates, the text body) and never raises: every problem in the input
becomes a human-readable entry in ``DecodedMessage.defects``.
``visible.visible_text`` then keeps only what the author wrote in this post:
no quoted replies, attributions, forwarded blocks, signatures, list footers or
B Nomic comments (rule 8, seed 004).
"""
