"""Who may act: the trust model of docs/trust.md, as code.

A post counts only if the game's list carried it, proven by the list's own
signature (an ARC seal or a DKIM signature of the list's domain) rather than
by a header anybody can type; its author is the one the list recorded and
vouched for; private mail counts only from an authenticated sender.  Nothing
here touches the database or the network beyond the key look-ups that
``keys.py`` answers.
"""
