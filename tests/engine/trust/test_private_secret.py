"""A player's secret for private mail (rule 1896, docs/trust.md): njudge's password.

A player asks for it on the list, which vouches for em; the bot mails it
to eir registered addresses alone and says on the list only that it did.  A
private mail (to the bot alone, with no Authentication-Results and no
signature) then counts as eirs when it holds the line ``secret: ...`` of eir
latest request; any other secret, or none, gets it refused and answered to
nobody.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from bot.config import PlayerEntry
from bot.engine.private_secrets import SECRET_KIND, UNAUTHENTICATED_PRIVATE_MAIL, derive_secret
from bot.parser import parse_post
from bot.testing.apps import TEST_SECRET
from bot.testing.go_game import ALICE, BOB, LIST_ADDRESS

if TYPE_CHECKING:
    from conftest import Desk, DeskMaker, Mail

CAROL = ("Carol", "carol@example.test")  # not a player
SECRET_LINE = re.compile(r"^\s*secret: (\S+)$", re.MULTILINE)
MASTER_SECRET = bytes.fromhex(TEST_SECRET)


def flat(text: str) -> str:
    """``text`` with its line wrapping undone, for phrases a template may wrap."""
    return " ".join(text.split())


def request_secret(desk: Desk, author: tuple[str, str] = ALICE, body: str = "") -> str:
    """Post a request on the list; the secret it gave, as mailed."""
    identifier = desk.post(author, body or "I request a secret for private mail.")
    mails = [mail for mail in desk.outbox(SECRET_KIND) if identifier in mail.body]
    assert len(mails) == 1, f"no secret mail for {identifier}"
    (secret, *_) = SECRET_LINE.findall(mails[0].body)
    return str(secret)


def ruling_mails(desk: Desk, identifier: str) -> list[Mail]:
    return [mail for mail in desk.replies_to(identifier) if mail.kind == "ruling"]


# -- the grammar -------------------------------------------------------------------------------

REQUESTS = (
    "I request a secret for private mail.",
    "Please send me a secret for private mail.",
    "I request a new private-mail secret.",
    "I hereby request a new secret for private mail",
    "I ask for a new secret for private e-mail.",
    "Send me a private mail secret, please.",
    "Hello all.\n\nPlease mail me my new secret for private mail.\n\nAlice",
    "I request a new secret to use in my private mail.",
)
NOT_REQUESTS = (
    "I request a secret ballot.",  # "private mail" is part of the request
    "Please send me a secret recipe.",
    "Could you send me a secret for private mail?",  # a question (grammar/README.md)
    "I will request a secret for private mail tomorrow.",  # intent
    "Alice requested a secret for private mail.",
)


@pytest.mark.parametrize("text", REQUESTS)
def test_requests_for_a_secret_are_read(text: str) -> None:
    parsed = parse_post(text)
    assert [action.action for action in parsed.actions] == ["roster.secret"]
    assert parsed.not_understood == () and not parsed.actions[0].conditional


@pytest.mark.parametrize("text", NOT_REQUESTS)
def test_prose_about_secrets_is_no_request(text: str) -> None:
    parsed = parse_post(text)
    assert parsed.actions == () and parsed.not_understood == ()


def test_the_neighbouring_requests_still_read_as_before() -> None:
    texts = ("I request my digest.", "Send me my holdings.", "I request to become a player as Z")
    actions = [[a.action for a in parse_post(text).actions] for text in texts]
    assert actions == [["digest.request"], ["roster.holdings"], ["roster.register"]]


# -- asking on the list --------------------------------------------------------------------------


def test_the_secret_is_mailed_to_the_player_alone_and_never_to_the_list(desk: Desk) -> None:
    identifier = desk.post(ALICE, "I request a secret for private mail.")
    assert desk.rulings(identifier) == [
        (
            "roster.secret",
            "applied",
            "1896",
            "a new secret for private mail is mailed to Alice alone, at eir registered "
            "address; it replaces any secret e was sent before",
        )
    ]
    secret = derive_secret(MASTER_SECRET, desk.player_id("Alice"), identifier)
    (mail,) = desk.outbox(SECRET_KIND)
    assert mail.recipients == [ALICE[1]]
    assert SECRET_LINE.findall(mail.body) == [secret]
    assert f"as you asked on the list in <{identifier}>" in mail.body
    assert "holds this line, on a line of its own:\n\nsecret: " in mail.body
    (ruling,) = ruling_mails(desk, identifier)
    assert ruling.recipients == [LIST_ADDRESS]
    assert "replaces any secret e was sent before (rule 1896)" in flat(ruling.body)
    public = [m for m in desk.outbox() if m.recipients != [ALICE[1]]]
    assert public and all(
        secret not in m.body and secret.replace("-", "") not in m.body for m in public
    )


def test_a_private_mail_with_the_secret_counts_as_the_player_s(desk: Desk) -> None:
    request = desk.post(ALICE, "I request a secret for private mail.")
    secret = derive_secret(MASTER_SECRET, desk.player_id("Alice"), request)
    private = desk.post(ALICE, f"My holdings please.\n\nsecret: {secret}\n", private=True)
    assert desk.status(private)[0] == "processed"
    assert [ruling[:3] for ruling in desk.rulings(private)] == [
        ("roster.holdings", "applied", "21 A.2")
    ]
    (reply,) = ruling_mails(desk, private)
    assert reply.recipients == [ALICE[1]]  # a private mail's answer stays private
    assert (
        f"Sender authenticated: your secret for private mail (requested in <{request}>)."
        in flat(reply.body)
    )
    assert "Alice holds:" in reply.body


@pytest.mark.parametrize("line", ["secret: aaaaa-bbbbb-ccccc-ddddd", "", "secret:"])
def test_a_wrong_or_missing_secret_is_refused_and_answered_to_nobody(desk: Desk, line: str) -> None:
    request_secret(desk)
    before = len(desk.outbox())
    private = desk.post(ALICE, f"My holdings please.\n\n{line}\n", private=True)
    assert desk.status(private) == ("refused", UNAUTHENTICATED_PRIVATE_MAIL)
    assert desk.rulings(private) == []
    assert desk.replies_to(private) == [] and len(desk.outbox()) == before


def test_a_second_request_replaces_the_first_secret(desk: Desk) -> None:
    first = request_secret(desk)
    second = request_secret(desk, body="I request a new private-mail secret.")
    assert first != second
    assert [mail.recipients for mail in desk.outbox(SECRET_KIND)] == [[ALICE[1]], [ALICE[1]]]
    old = desk.post(ALICE, f"My holdings please.\nsecret: {first}", private=True)
    assert desk.status(old)[0] == "refused" and desk.replies_to(old) == []
    new = desk.post(ALICE, f"My holdings please.\nsecret: {second}", private=True)
    assert desk.status(new)[0] == "processed"


def test_a_secret_counts_only_from_its_player_s_addresses(desk: Desk) -> None:
    secret = request_secret(desk)
    for author in (BOB, CAROL):  # another player, and no player at all
        private = desk.post(author, f"My holdings please.\nsecret: {secret}", private=True)
        assert desk.status(private)[0] == "refused"
        assert desk.replies_to(private) == []


def test_a_repeated_request_in_one_post_mails_one_secret(desk: Desk) -> None:
    identifier = desk.post(ALICE, "I request a secret for private mail twice.")
    assert [ruling[:2] for ruling in desk.rulings(identifier)] == [
        ("roster.secret", "applied"),
        ("roster.secret", "applied"),
    ]
    assert len(desk.outbox(SECRET_KIND)) == 1


# -- who may ask, and how -------------------------------------------------------------------------


def test_a_non_player_s_request_is_rejected_and_mails_nothing_secret(desk: Desk) -> None:
    identifier = desk.post(CAROL, "I request a secret for private mail.")
    ((action, ruling, rule, reason),) = desk.rulings(identifier)
    assert (action, ruling, rule) == ("roster.secret", "rejected", "14")
    assert "carol@example.test is not a player's address" in reason
    assert desk.outbox(SECRET_KIND) == []


def test_a_request_sent_privately_is_rejected_citing_rule_1896(desk: Desk) -> None:
    secret = request_secret(desk)
    private = desk.post(
        ALICE, f"I request a new private-mail secret.\n\nsecret: {secret}\n", private=True
    )
    ((action, ruling, rule, reason),) = desk.rulings(private)
    assert (action, ruling, rule) == ("roster.secret", "rejected", "1896")
    assert "post it to the list for it to count" in reason
    (reply,) = ruling_mails(desk, private)
    assert reply.recipients == [ALICE[1]]
    assert len(desk.outbox(SECRET_KIND)) == 1  # no new secret was mailed ...
    again = desk.post(ALICE, f"My holdings please.\nsecret: {secret}", private=True)
    assert desk.status(again)[0] == "processed"  # ... and the old one still works


def test_every_registered_address_receives_the_secret(make_desk: DeskMaker) -> None:
    work = "alice@work.example"
    players = (PlayerEntry(ALICE[0], (ALICE[1], work)), PlayerEntry(BOB[0], (BOB[1],)))
    desk = make_desk(players=players)
    identifier = desk.post((ALICE[0], work), "Please send me a secret for private mail.")
    assert "alone, at each of eir 2 registered addresses;" in desk.rulings(identifier)[0][3]
    (mail,) = desk.outbox(SECRET_KIND)
    assert mail.recipients == sorted([ALICE[1], work])
    # The secret works from either address: it is the player's, not the address's.
    secret = SECRET_LINE.findall(mail.body)[0]
    private = desk.post(ALICE, f"My holdings please.\nsecret: {secret}", private=True)
    assert desk.status(private)[0] == "processed"


def test_a_replay_of_the_list_knows_the_same_secret(make_desk: DeskMaker) -> None:
    # The private mail that carried the secret is not in the list's archive,
    # and need not be: the same request gives the same secret again.
    bodies = []
    for folder in ("live", "replay"):
        desk = make_desk(folder)
        desk.post(ALICE, "I request a secret for private mail.")
        (mail,) = desk.outbox(SECRET_KIND)
        bodies.append(mail.body)
    assert bodies[0] == bodies[1]
