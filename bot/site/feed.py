"""The Atom feed of the bot's rulings and reports to the list (RFC 4287)."""

from __future__ import annotations

from xml.etree import ElementTree

from bot.site.documents import PublicMail, PublicRecord

ATOM = "http://www.w3.org/2005/Atom"
FEED_LENGTH = 50


def atom_feed(record: PublicRecord, title: str) -> str:
    """The newest ``FEED_LENGTH`` mails, newest first, with links relative to the site."""
    ElementTree.register_namespace("", ATOM)
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    _text(feed, "title", f"{title}: rulings")
    _text(feed, "id", f"urn:nomicbot:{title}:rulings")
    _text(feed, "updated", record.at.isoformat())
    ElementTree.SubElement(feed, f"{{{ATOM}}}link", href="history.html")
    ElementTree.SubElement(
        ElementTree.SubElement(feed, f"{{{ATOM}}}author"), f"{{{ATOM}}}name"
    ).text = title
    for mail in reversed(record.mails[-FEED_LENGTH:]):
        feed.append(_entry(mail))
    return ElementTree.tostring(feed, encoding="unicode", xml_declaration=True) + "\n"


def _entry(mail: PublicMail) -> ElementTree.Element:
    entry = ElementTree.Element(f"{{{ATOM}}}entry")
    _text(entry, "title", mail.subject)
    _text(entry, "id", f"urn:message-id:{mail.message_id.strip('<>')}")
    _text(entry, "updated", mail.date.isoformat())
    ElementTree.SubElement(entry, f"{{{ATOM}}}link", href=f"mail-{mail.number}.html")
    content = _text(entry, "content", mail.body)
    content.set("type", "text")
    return entry


def _text(parent: ElementTree.Element, name: str, text: str) -> ElementTree.Element:
    element = ElementTree.SubElement(parent, f"{{{ATOM}}}{name}")
    element.text = text
    return element
