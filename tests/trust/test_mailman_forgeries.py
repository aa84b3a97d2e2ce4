"""Forgeries against a real GNU Mailman 3 list, through the real daemon (docs/trust.md).

The world (``bot.testing.trust_world``) is DNS, Postfix, Mailman 3 and
Dovecot on loopback, set up by deploy/GUIDE.md word for word, with one
list that munges From and one that does not, each read by its own referee.
Every case below is a raw mail handed to the border Postfix, addressed to
the list (and so ARC-sealed by Mailman) or straight to a referee's mailbox.
Each is sent to both worlds' lists; the expected outcome is the player the
post is judged as, or "refused" (no ruling, no reply to anyone, listed for
the administrator with its reason), or "ignored" / "duplicate".

The whole matrix is printed (run with ``-s`` to see it) for the record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate
from itertools import count

import pytest

from bot.engine.refusals import refused_posts
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.signing import signing_key
from bot.testing.trust_world import (
    BOTS,
    LIST_DOMAIN,
    MUNGED_LIST,
    PEOPLE,
    PLAIN_LIST,
    MailWorld,
    Referee,
    mail_world,
)

# The trust world binds the DNS port 53 of a fixed loopback address: one at a time.
pytestmark = [pytest.mark.xdist_group("trust-world"), pytest.mark.long_running]

ROLL = "I roll 1d6.\n"
PRIVATE = "My holdings please.\n"  # an action a private mail may carry (rule 1896)
TYPED_RESULTS = (
    "Authentication-Results",
    f"{LIST_DOMAIN}; dkim=pass header.d=a.example header.i=@a.example; "
    "dmarc=pass header.from=a.example",
)
ALICE, BOB, CAROL, MALLORY, DAVE = (PEOPLE[n] for n in ("Alice", "Bob", "Carol", "Mallory", "Dave"))
_numbers = count(1)


@dataclass(frozen=True)
class Sent:
    message_id: str
    raw: bytes
    mail_from: str
    recipients: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    name: str
    # What is sent, built for one list: (world, list address, referee address) -> mails.
    build: Callable[[MailWorld, str, str], list[Sent]]
    # The expected outcome on the munged list and on the plain one.
    munged: str
    plain: str
    reaches_bot: bool = True  # False: the list holds it, and it never reaches the referee


def new_id(label: str) -> str:
    return f"{label}.{next(_numbers)}@{label.split('-')[0]}.cases.example"


def mail(
    sender: str,
    to: str,
    body: str = ROLL,
    *,
    message_id: str,
    headers: tuple[tuple[str, str], ...] = (),
    html: bool = False,
    subject: str = "Dice",
) -> bytes:
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate()
    message["Message-ID"] = f"<{message_id}>"
    for name, value in headers:
        message[name] = value
    if html:
        message.set_content(f"<html><body><p>{body}</p></body></html>", subtype="html")
    else:
        message.set_content(body)
    return message.as_bytes()


def raw_mail(from_line: str, to: str, message_id: str, body: str = ROLL) -> bytes:
    """A mail whose From header is written by hand, byte for byte."""
    lines = [
        f"From: {from_line}",
        f"To: {to}",
        "Subject: Dice",
        f"Date: {formatdate()}",
        f"Message-ID: <{message_id}>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=us-ascii",
        "",
        body,
    ]
    return "\r\n".join(lines).encode()


def post(
    label: str,
    sender: str,
    envelope: str,
    domain: str | None,
    *,
    headers: tuple[tuple[str, str], ...] = (),
    html: bool = False,
    body: str = ROLL,
    subject: str = "Dice",
) -> Callable[[MailWorld, str, str], list[Sent]]:
    """A post to the list, signed by ``domain``'s key (None: unsigned)."""

    def build(world: MailWorld, lst: str, bot: str) -> list[Sent]:
        message_id = new_id(label)
        raw = mail(
            sender, lst, body, message_id=message_id, headers=headers, html=html, subject=subject
        )
        if domain:
            raw = world.sign(raw, domain)
        return [Sent(message_id, raw, envelope, (lst,))]

    return build


def direct(
    label: str, sender: str, envelope: str, domain: str | None, *, to_list: bool = True
) -> Callable[[MailWorld, str, str], list[Sent]]:
    """Straight to the referee's mailbox: a copied List-Id, or (``to_list`` False) private mail."""

    def build(world: MailWorld, lst: str, bot: str) -> list[Sent]:
        message_id = new_id(label)
        if to_list:
            list_id = ("List-Id", f"<{lst.replace('@', '.')}>")
            raw = mail(sender, lst, message_id=message_id, headers=(list_id,))
        else:
            raw = mail(sender, bot, PRIVATE, message_id=message_id)
        if domain:
            raw = world.sign(raw, domain)
        return [Sent(message_id, raw, envelope, (bot,))]

    return build


def hand_written(
    label: str, from_line: str, domain: str, *, via_list: bool
) -> Callable[..., list[Sent]]:
    def build(world: MailWorld, lst: str, bot: str) -> list[Sent]:
        message_id = new_id(label)
        raw = world.sign(raw_mail(from_line, lst, message_id), domain)
        return [Sent(message_id, raw, MALLORY, (lst,) if via_list else (bot,))]

    return build


def reply_all(world: MailWorld, lst: str, bot: str) -> list[Sent]:
    """Alice answers the bot and Cc's the list: the bot gets a direct copy and the list's."""
    message_id = new_id("reply-all")
    raw = world.sign(
        mail(f"Alice <{ALICE}>", bot, message_id=message_id, headers=(("Cc", lst),)), "a.example"
    )
    return [Sent(message_id, raw, ALICE, (bot, lst))]


def forged_arc_seal(world: MailWorld, lst: str, bot: str) -> list[Sent]:
    """Mallory seals a post as if e were the list: the list's domain and selector, eir own key."""
    message_id = new_id("forged-arc")
    key = signing_key(LIST_DOMAIN, "nomic-forged")
    raw = mail(
        f"Alice <{ALICE}>",
        lst,
        message_id=message_id,
        headers=(("List-Id", f"<{lst.replace('@', '.')}>"),),
    )
    results = "dkim=pass header.d=a.example; dmarc=pass header.from=a.example"
    sealed = key.arc_seal(raw, LIST_DOMAIN, results)
    sealed = sealed.replace(b"s=nomic-forged", b"s=nomic")
    return [Sent(message_id, sealed, MALLORY, (bot,))]


def sealed_copy(world: MailWorld, lst: str, bot: str, message_id: str) -> bytes:
    """Mallory's own copy of a post the list distributed: e is a member."""
    for raw in reversed(world.mailbox(MALLORY)):
        mail = message_from_bytes(raw)
        if mail["Message-ID"] == f"<{message_id}>" and mail["ARC-Seal"]:
            return _strip_delivery(raw)
    raise AssertionError(f"Mallory never received {message_id} from {lst}")


def _strip_delivery(raw: bytes) -> bytes:
    """Drop the headers Mallory's own Dovecot and Postfix added on delivery (above the seal)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(b"ARC-Seal"))
    return b"\r\n".join(lines[start:]) + b"\r\n\r\n" + body


CASES: tuple[Case, ...] = (
    # Genuine posts: acted on as their authors.
    Case(
        "genuine plain post",
        post("genuine", f"Alice <{ALICE}>", ALICE, "a.example"),
        "Alice",
        "Alice",
    ),
    Case(
        "genuine HTML-only post",
        post("html", f"Bob <{BOB}>", BOB, "b.example", html=True),
        "Bob",
        "Bob",
    ),
    Case(
        "genuine post with signature and quote",
        post(
            "quoted",
            f"Carol <{CAROL}>",
            CAROL,
            "a.example",
            body="I roll 1d6.\n\nOn Monday Alice wrote:\n> I forfeit the game.\n\n-- \nCarol\n",
        ),
        "Carol",
        "Carol",
    ),
    Case(
        "genuine post with its own Reply-To",
        post(
            "own-reply-to", f"Alice <{ALICE}>", ALICE, "a.example", headers=(("Reply-To", ALICE),)
        ),
        "Alice",
        "Alice",
    ),
    # Mailman appends the sender to an existing Reply-To, Cc or an X-Original-From is typed.
    Case(
        "Reply-To names Alice (Bob's post)",
        post(
            "reply-to",
            f"Bob <{BOB}>",
            BOB,
            "b.example",
            headers=(("Reply-To", f"Alice <{ALICE}>"),),
        ),
        "Bob",
        "Bob",
    ),
    Case(
        "Reply-To names Alice (Carol, same domain)",
        post(
            "same-domain",
            f"Carol <{CAROL}>",
            CAROL,
            "a.example",
            headers=(("Reply-To", f"Alice <{ALICE}>"),),
        ),
        "refused",
        "Carol",
    ),
    Case(
        "forged X-Original-From: Alice",
        post(
            "x-original-from",
            f"Bob <{BOB}>",
            BOB,
            "b.example",
            headers=(("X-Original-From", f"Alice <{ALICE}>"),),
        ),
        "Bob",
        "Bob",
    ),
    Case(
        "Alice in Cc",
        post("cc", f"Bob <{BOB}>", BOB, "b.example", headers=(("Cc", f"Alice <{ALICE}>"),)),
        "Bob",
        "Bob",
    ),
    # Not through the list at all.
    Case(
        "forged List-Id, straight to the bot",
        direct("list-id", f"Alice <{ALICE}>", MALLORY, None),
        "refused",
        "refused",
    ),
    Case(
        "forged List-Id, straight to the bot, signed by Mallory's domain",
        direct("list-id-signed", f"Alice <{ALICE}>", MALLORY, "evil.example"),
        "refused",
        "refused",
    ),
    Case("forged ARC seal of the list's domain", forged_arc_seal, "refused", "refused"),
    # From headers built to confuse a parser.
    Case(
        "encoded CRLF in the display name, via the list",
        hand_written(
            "crlf", f"=?utf-8?q?{ALICE}=0D=0A?= <{MALLORY}>", "evil.example", via_list=True
        ),
        "refused",
        "refused",
    ),
    Case(
        "encoded CRLF in the display name, straight to the bot",
        hand_written(
            "crlf-direct", f"=?utf-8?q?{ALICE}=0D=0A?= <{MALLORY}>", "evil.example", via_list=False
        ),
        "refused",
        "refused",
    ),
    Case(
        "two mailboxes in From",
        hand_written("two-froms", f"{ALICE}, {MALLORY}", "evil.example", via_list=True),
        "refused",
        "refused",
    ),
    Case(
        "display name that is Alice's address",
        hand_written("name-address", f'"{ALICE}" <{MALLORY}>', "evil.example", via_list=True),
        "Mallory",
        "refused",
    ),
    # Alice's address, without Alice's domain's signature.
    Case(
        "From: Alice, sent from Mallory's server",
        post("from-alice", f"Alice <{ALICE}>", MALLORY, "evil.example"),
        "refused",
        "refused",
    ),
    Case(
        "From: Alice with a typed A-R of the list's authserv-id on top",
        post("ar-top", f"Alice <{ALICE}>", MALLORY, "evil.example", headers=(TYPED_RESULTS,)),
        "refused",
        "refused",
    ),
    Case(
        "From: Alice with a typed A-R of the list's authserv-id below another",
        post(
            "ar-below",
            f"Alice <{ALICE}>",
            MALLORY,
            "evil.example",
            headers=(("Authentication-Results", "mx.evil.example; spf=pass"), TYPED_RESULTS),
        ),
        "refused",
        "refused",
    ),
    Case("Reply-All: to the bot, Cc the list", reply_all, "Alice", "Alice"),
    Case(
        "DMARC-less domain (Dave, unsigned)",
        post("nodmarc", f"Dave <{DAVE}>", DAVE, None),
        "refused",
        "refused",
    ),
    # Private mail: to the bot alone.
    Case(
        "genuine private request, DKIM-signed",
        direct("private", f"Alice <{ALICE}>", ALICE, "a.example", to_list=False),
        "Alice",
        "Alice",
    ),
    Case(
        "forged private request, unsigned",
        direct("private-forged", f"Alice <{ALICE}>", MALLORY, None, to_list=False),
        "refused",
        "refused",
    ),
    Case(
        "forged private request, signed by Mallory's domain",
        direct("private-evil", f"Alice <{ALICE}>", MALLORY, "evil.example", to_list=False),
        "refused",
        "refused",
    ),
    # Automatic mail.
    Case(
        "out-of-office answer",
        post("auto", f"Alice <{ALICE}>", ALICE, "a.example", subject="Automatic reply: Dice"),
        "ignored",
        "ignored",
    ),
)


# -- running the cases ---------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    result: str  # a player's name, "refused", "ignored", "duplicate" or "never arrived"
    reason: str
    rulings: int  # rulings mailed in reply to the post
    message_ids: tuple[str, ...]


@pytest.fixture(scope="module")
def world() -> Iterator[MailWorld]:
    with (
        failing_when_unavailable("the mail world (DNS, Postfix, Mailman 3, Dovecot)"),
        mail_world() as started,
    ):
        yield started


def outcome(world: MailWorld, referee: Referee, message_id: str) -> Outcome:
    rows = world.judged(referee, message_id)
    if not rows:
        return Outcome("never arrived", "", 0, (message_id,))
    processed = [row for row in rows if row.status == "processed"]
    rulings = sum(
        1
        for mail_row in world.outbox(referee)
        for row in rows
        if mail_row.in_reply_to_pk == row.id and mail_row.kind == "ruling"
    )
    if processed:
        actors = sorted(set(world.actors(referee, message_id)))
        return Outcome(
            ", ".join(actors) or "no action", processed[0].status_reason, rulings, (message_id,)
        )
    first = rows[0]
    return Outcome(first.status, first.status_reason, rulings, (message_id,))


@pytest.fixture(scope="module")
def outcomes(world: MailWorld) -> dict[tuple[str, str], Outcome]:
    sent: dict[tuple[str, str], list[Sent]] = {}
    for case in CASES:
        for lst, bot in BOTS.items():
            mails = case.build(world, lst, bot)
            for one in mails:
                world.send(one.raw, one.mail_from, list(one.recipients))
            sent[(case.name, lst)] = mails
    for lst, referee in world.referees.items():
        ids = [m.message_id for (name, on), mails in sent.items() if on == lst for m in mails]
        world.wait_settled(referee, ids, timeout=120)
    found = {
        key: outcome(world, world.referees[key[1]], mails[0].message_id)
        for key, mails in sent.items()
    }
    print_matrix(found)
    return found


def print_matrix(found: dict[tuple[str, str], Outcome]) -> None:
    print("\n\nattack or post".ljust(72), "munged list".ljust(14), "plain list")
    for case in CASES:
        munged, plain = found[(case.name, MUNGED_LIST)], found[(case.name, PLAIN_LIST)]
        print(case.name.ljust(70), munged.result.ljust(14), plain.result)
    print()
    for (name, lst), result in found.items():
        if result.result in {"refused", "ignored"}:
            print(f"  {lst.partition('@')[0]:7} {name}: {result.reason}")


# -- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.parametrize("lst", list(BOTS), ids=["munged", "plain"])
def test_each_post_is_judged_as_its_real_author_or_refused(
    outcomes: dict[tuple[str, str], Outcome], case: Case, lst: str
) -> None:
    found = outcomes[(case.name, lst)]
    expected = case.munged if lst == MUNGED_LIST else case.plain
    assert found.result == expected, (found.reason, found)
    if expected in PEOPLE:
        assert found.rulings == 1, found
    else:
        assert found.rulings == 0, found


def test_no_post_acts_for_alice_unless_alice_sent_it(
    outcomes: dict[tuple[str, str], Outcome],
) -> None:
    genuine = {
        "genuine plain post",
        "genuine post with its own Reply-To",
        "Reply-All: to the bot, Cc the list",
        "genuine private request, DKIM-signed",
    }
    acted_for_alice = {name for (name, _), found in outcomes.items() if "Alice" in found.result}
    assert acted_for_alice == genuine


def test_a_refused_post_is_listed_with_its_reason_and_answered_to_nobody(
    world: MailWorld, outcomes: dict[tuple[str, str], Outcome]
) -> None:
    refused = [(lst, found) for (_, lst), found in outcomes.items() if found.result == "refused"]
    assert len(refused) >= 20
    bot_mail = [raw for address in PEOPLE.values() for raw in world.mailbox(address)]
    for lst, found in refused:
        referee = world.referees[lst]
        with referee.app.session_factory() as session:
            listed = {post.message_id: post.reason for post in refused_posts(session)}
        for message_id in found.message_ids:
            assert listed.get(message_id), (lst, message_id)
            # No mail anywhere answers it: not the claimed sender, not the list.
            marker = f"<{message_id}>".encode()
            assert not [raw for raw in bot_mail if b"X-Nomicbot-Kind" in raw and marker in raw]


def test_the_private_answer_goes_to_the_sender_alone_and_says_how_e_was_authenticated(
    world: MailWorld, outcomes: dict[tuple[str, str], Outcome]
) -> None:
    for lst, referee in world.referees.items():
        found = outcomes[("genuine private request, DKIM-signed", lst)]
        [message_id] = found.message_ids
        rows = [row for row in world.judged(referee, message_id) if row.status == "processed"]
        replies = [m for m in world.outbox(referee) if m.in_reply_to_pk == rows[0].id]
        assert [m.recipients for m in replies] == [[ALICE]]
        text = replies[0].raw.decode("utf-8", "replace")
        assert "Sender authenticated: your DKIM signature (d=a.example) verified" in text


def test_a_sealed_post_replayed_or_changed_is_not_judged_again(
    world: MailWorld, outcomes: dict[tuple[str, str], Outcome]
) -> None:
    for lst, bot in BOTS.items():
        referee = world.referees[lst]
        [original_id] = outcomes[("genuine plain post", lst)].message_ids
        sealed = sealed_copy(world, lst, bot, original_id)
        changed = sealed.replace(b"I roll 1d6.", b"I forfeit.")
        assert changed != sealed
        new_id_ = new_id("replayed")
        renamed = changed.replace(f"<{original_id}>".encode(), f"<{new_id_}>".encode())
        # Mallory adds an ARC set of eir own on top, as a forwarder would.
        resealed_id = new_id("resealed")
        resealed = world.keys["evil.example"].arc_seal(
            changed.replace(f"<{original_id}>".encode(), f"<{resealed_id}>".encode()),
            "mx.evil.example",
            "arc=pass",
        )
        assert b"ARC-Seal: i=2" in resealed
        for raw in (sealed, changed, renamed, resealed):
            world.send(raw, MALLORY, [bot])
        assert world.wait_settled(referee, [new_id_, resealed_id], timeout=60)
        # The exact and the changed copy under the judged Message-ID: nothing new.
        assert [row.status for row in world.judged(referee, original_id)] == ["processed"]
        assert world.actors(referee, original_id) == ["Alice"]
        for message_id, reason in (
            (new_id_, "does not verify"),
            (resealed_id, "not by the list"),
        ):
            found = outcome(world, referee, message_id)
            assert (found.result, found.rulings) == ("refused", 0), found
            assert reason in found.reason, found.reason


def test_the_referee_never_answers_its_own_rulings(world: MailWorld) -> None:
    for referee in world.referees.values():
        answered = {m.in_reply_to_pk for m in world.outbox(referee) if m.in_reply_to_pk}
        with referee.app.session_factory() as session:
            from bot.store.models import Message

            own = [
                row.id
                for row in session.query(Message).all()
                if re.search(rb"^X-Nomicbot-Kind:", row.raw, re.MULTILINE)
            ]
        assert own, "the referee's rulings come back to it through the list"
        assert not answered & set(own)


def test_the_guide_was_followed_word_for_word(world: MailWorld) -> None:
    # Step 1 printed the record to publish; it is what the list seals with.
    assert any(
        line.startswith(f"nomic._domainkey.{LIST_DOMAIN} v=DKIM1")
        for out in world.guide_output
        for line in out.splitlines()
    )
    config = (world.mailman.etc / "mailman.cfg").read_text()
    assert "[ARC]\nenabled: yes" in config
    checks = (world.postfix.config_directory / "nomic_header_checks").read_text()
    assert "IGNORE" in checks


def test_a_typed_authentication_result_never_reaches_mailman(
    world: MailWorld, outcomes: dict[tuple[str, str], Outcome]
) -> None:
    # deploy/GUIDE.md step 3: without it, Mailman 3.3 would take the typed verdict
    # (dkim=pass header.d=a.example) as its own and seal it.
    for name in (
        "From: Alice with a typed A-R of the list's authserv-id on top",
        "From: Alice with a typed A-R of the list's authserv-id below another",
    ):
        for lst, referee in world.referees.items():
            [message_id] = outcomes[(name, lst)].message_ids
            [row] = world.judged(referee, message_id)
            head = row.raw.partition(b"\r\n\r\n")[0].decode()
            unfolded = " ".join(head.split())
            assert "header.d=evil.example" in unfolded, unfolded
            assert "header.d=a.example" not in unfolded, unfolded


def test_the_genuine_posts_came_with_the_list_s_footer_and_prefix(
    world: MailWorld, outcomes: dict[tuple[str, str], Outcome]
) -> None:
    for lst, referee in world.referees.items():
        [message_id] = outcomes[("genuine HTML-only post", lst)].message_ids
        [row] = world.judged(referee, message_id)
        mail = message_from_bytes(row.raw)
        assert mail["Subject"].startswith("[")  # the list's subject prefix
        text = row.raw.decode("utf-8", "replace")
        assert "To unsubscribe send an email to" in text  # the list's footer
