"""Private votes in the public archive: committed when cast, revealed at the close (rule 15 B).

Rule 15 B lets a Concealable poll's votes "be sent to the Chairman
privately; when the Duration Concludes, the Chairman must post publicly the
private votes".  The bot mails the list a signed commitment to each private
vote when it accepts it and the reveal when the poll concludes
(docs/archive.md), so that the list's archive alone, replayed into a fresh
database, rebuilds the game: the same views and the same mails.  The
archive here is what a list would hold: the public posts and every mail the
bot sent to the list, the commitments archived a few seconds after the
private votes they commit to, as a list delivers them.
"""

from __future__ import annotations

import base64
import json
import mailbox
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from sqlalchemy import select

from bot.app import App, build_app
from bot.cli import main
from bot.engine.admin_records import RECORD_TYPE, AdminRecord, compose_record_mail
from bot.engine.private_records import canonical_json, commitment_of, signing_key
from bot.engine.refusals import refused_posts
from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.private_audit import verify_private_votes
from bot.runner import advance_to, replay_archive
from bot.store.models import Message, OutboxMessage
from bot.testing.apps import write_config
from bot.testing.go_game import LIST_ADDRESS
from bot.trust.bot_key import GENERATED_RECORD
from tests.engine.governance.conftest import Game, GameFactory

SECRET_WORD = "nope"  # only Bob's private votes use it
VIEWS = ("proposals", "ballot", "polls", "holdings", "players")
LIST_DELAY = timedelta(seconds=3)  # how long after the bot sent it the list archives a mail


def first_votes(game: Game) -> None:
    """Two proposals on the Ballot; Alice votes on the list, then Bob privately on both."""
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Bob", "I submit a proposal: __Tea__ {{ Tea for all. }}", game.at(1, 2))
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 100, shelve on 101", game.at(1, 7, 60))
    game.post(
        "Bob",
        f"I vote {SECRET_WORD} on 100 and {SECRET_WORD} on 101",
        game.at(1, 7, 120),
        private=True,
    )


def play(game: Game) -> None:
    """Private votes, a public one between them, and one a second before the Ballot closes."""
    first_votes(game)
    game.post("Bob", "I vote FOR 100", game.at(1, 7, 180))  # public, then private again
    game.post("Bob", f"I vote {SECRET_WORD} on 100", game.at(1, 8), private=True)
    game.post("Carol", "I vote sure on 100 and 101", game.at(1, 8, 60))
    # One second before the Ballot closes: the list archives the commitment after the close.
    game.post("Carol", "I vote against 101", game.at(2, 0, -1), private=True)
    game.advance(game.at(2, 1))


@dataclass(frozen=True)
class Archived:
    raw: bytes
    at: datetime
    sender: str


def list_archive(
    game: Game,
    path: Path,
    change: Callable[[bytes], bytes] = bytes,
    before: datetime | None = None,
) -> Path:
    """The list's archive of ``game``: its public posts and the bot's mails to the list
    (each as ``change`` makes it), those archived ``before`` an instant if given."""
    entries: list[tuple[datetime, int, int, Archived]] = []
    with game.app.session_factory() as session:
        for message in session.scalars(select(Message).where(Message.source == "smtp")):
            mail = message_from_bytes(message.raw, policy=default)
            if LIST_ADDRESS in str(mail["To"]):
                entry = Archived(message.raw, message.received_at, str(mail["From"]))
                entries.append((message.received_at, 0, message.id, entry))
        for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            if LIST_ADDRESS in row.recipients:
                mail = message_from_bytes(row.raw, policy=default)
                at = parsedate_to_datetime(str(mail["Date"])) + LIST_DELAY
                entry = Archived(change(row.raw), at, "bot@example.test")
                entries.append((at, 1, row.id, entry))
    box = mailbox.mbox(path)
    for _, _, _, entry in sorted(entries, key=lambda item: item[:3]):
        if before is not None and entry.at >= before:
            continue
        archived = mailbox.mboxMessage(entry.raw)
        archived.set_from(mbox_from_line(entry.sender, entry.at)[5:])
        box.add(archived)
    box.flush()
    return path


def auditor(game: Game, folder: Path) -> App:
    """A fresh bot elsewhere that knows the live bot's published key (docs/archive.md)."""
    settings = game.app.settings
    published = settings.data_path / GENERATED_RECORD
    settings = replace(
        settings,
        bot=replace(settings.bot, data_dir=str(folder)),
        trust=replace(settings.trust, key_file=str(published)),
        outbound=replace(settings.outbound, maildir=str(folder / "outbox")),
    )
    app = build_app(settings)
    advance_to(app, game.epoch)  # started with the game, as the live bot was
    return app


def replayed(game: Game, archive: Path, folder: Path, until: datetime) -> Game:
    app = auditor(game, folder)
    replay_archive(app, archive, MaildirTransport(folder / "out"), until=until)
    return Game(app, game.epoch)


def list_mails(game: Game) -> list[Any]:
    """What the bot mailed to the list, but for the records (the archive holds those)."""
    return [mail for mail in game.sent() if mail.public and mail.kind != "admin-record"]


def outbox_bytes(game: Game) -> list[bytes]:
    """The bytes of every mail the bot wrote to the list, records aside, in order."""
    with game.app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        return [
            row.raw for row in rows if LIST_ADDRESS in row.recipients and row.kind != "admin-record"
        ]


def records(game: Game) -> list[tuple[EmailMessage, dict[str, Any]]]:
    """The signed records the bot mailed to the list, with their JSON, in order."""
    found = []
    with game.app.session_factory() as session:
        query = select(OutboxMessage).where(OutboxMessage.kind == "admin-record")
        for row in session.scalars(query.order_by(OutboxMessage.id)):
            mail = message_from_bytes(row.raw, policy=default)
            assert isinstance(mail, EmailMessage)
            found.append((mail, record_json(mail)))
    return found


def record_json(mail: EmailMessage) -> dict[str, Any]:
    [part] = [part for part in mail.walk() if part.get_content_type() == RECORD_TYPE]
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    inner = message_from_bytes(payload, policy=default)
    assert isinstance(inner, EmailMessage)
    document: dict[str, Any] = json.loads(inner.get_content())
    return document


def readable(mail: EmailMessage) -> str:
    """All a reader of the archive can read in a record mail, its attachment decoded.

    The signature is left out: its base64 is as good as random, so it spells
    any short word now and then (CI once found "Bob" in it) and
    discloses nothing.
    """
    texts = []
    for part in mail.walk():
        texts.extend(f"{name}: {value}" for name, value in part.items())
        if part.get_content_type() == RECORD_TYPE:
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            inner = message_from_bytes(payload, policy=default)
            assert isinstance(inner, EmailMessage)
            del inner["DKIM-Signature"]
            texts.extend(f"{name}: {value}" for name, value in inner.items())
            texts.append(inner.get_content())
        elif part.get_content_maintype() == "text":
            texts.append(part.get_content())
    return "\n".join(texts)


def test_the_list_archive_alone_rebuilds_a_game_with_private_votes(
    new_game: GameFactory, tmp_path: Path
) -> None:
    live = new_game()
    play(live)
    archive = list_archive(live, tmp_path / "list.mbox")
    replay = replayed(live, archive, tmp_path / "replay", live.at(2, 1))

    for name in VIEWS:
        assert replay.view(name).data == live.view(name).data, name
        assert replay.view(name).text == live.view(name).text, name
    assert replay.sent() == list_mails(live)
    assert outbox_bytes(replay) == outbox_bytes(live)  # byte for byte, in the same order
    (results,) = replay.sent_of("ballot-results")
    assert f'Bob: No ("{SECRET_WORD}"), sent privately' in results.body
    assert '"against"), sent privately' in results.body  # Carol's, a second before the close
    with replay.app.session_factory() as session:
        statuses = session.scalars(select(Message.status)).all()
    assert "refused" not in statuses and "shunted" not in statuses


def test_the_commitments_disclose_nothing_and_the_reveal_comes_at_the_close(
    new_game: GameFactory,
) -> None:
    live = new_game()
    play(live)
    kinds = [mail.kind for mail in live.sent() if mail.public]
    found = records(live)
    commands = [document["command"] for _, document in found]
    assert commands == ["private.commit"] * 3 + ["private.reveal"] * 2
    close = live.at(2, 0)
    for mail, document in found[:3]:
        assert parsedate_to_datetime(str(mail["Date"])) < close
        text = readable(mail)
        assert all(vote["commitment"] in text for vote in document["arguments"]["votes"])
        assert SECRET_WORD not in text and "Bob" not in text and "Carol" not in text
        assert set(document["arguments"]["votes"][0]) == {"poll", "subject", "commitment", "reveal"}
    reveals = [document for _, document in found[3:]]
    assert all(datetime.fromisoformat(document["issued_at"]) == close for document in reveals)
    # The reveals go out before the results they explain.
    assert kinds.index("ballot-results") > max(
        index for index, kind in enumerate(kinds) if kind == "admin-record"
    )
    # Each revealed vote hashes to its commitment: sha256 of the canonical JSON.
    committed = {vote["commitment"] for _, d in found[:3] for vote in d["arguments"]["votes"]}
    revealed = [vote for document in reveals for vote in document["arguments"]["votes"]]
    assert {commitment_of(vote["action"], vote["nonce"]) for vote in revealed} == committed
    vote = revealed[0]
    document = {"action": vote["action"], "nonce": vote["nonce"]}
    assert (
        canonical_json(document)
        == json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    )


def play_into_the_voting_period(game: Game) -> None:
    """Each voter votes once on each poll, Bob and Carol privately on some."""
    first_votes(game)
    game.post("Carol", "I vote sure on 100", game.at(1, 8))
    game.post("Carol", "I vote against 101", game.at(1, 8, 60), private=True)
    game.advance(game.at(1, 9))


def test_an_archive_that_ends_before_the_close_keeps_the_votes_sealed(
    new_game: GameFactory, tmp_path: Path
) -> None:
    live = new_game()
    play_into_the_voting_period(live)
    archive = list_archive(live, tmp_path / "list.mbox")
    replay = replayed(live, archive, tmp_path / "replay", live.at(1, 9))

    # What is public agrees: the private votes are withheld, counted, their content unknown.
    for name in VIEWS:
        assert replay.view(name).data == live.view(name).data, name
        assert replay.view(name).text == live.view(name).text, name
    (cake, tea) = replay.view("ballot").data["proposals"]
    assert [vote["voter"] for vote in cake["votes"]] == ["Alice", "Carol"]
    assert (cake["withheld"], tea["withheld"]) == (1, 2)
    assert replay.sent() == list_mails(live)
    with replay.app.session_factory() as session:
        reasons = [message.status_reason for message in session.scalars(select(Message))]
    sealed = [reason for reason in reasons if "sealed" in reason]
    assert len(sealed) == 2 and all("rule 15 B" in reason for reason in sealed)


def test_a_replay_continued_past_the_close_casts_the_sealed_votes(
    new_game: GameFactory, tmp_path: Path
) -> None:
    # The archive as it stood before the close, then the whole of it, into one database.
    live = new_game()
    play(live)
    before = list_archive(live, tmp_path / "before.mbox", before=live.at(1, 9))
    replay = replayed(live, before, tmp_path / "replay", live.at(1, 9))
    (cake, _) = replay.view("ballot").data["proposals"]
    assert [vote["voter"] for vote in cake["votes"]] == ["Alice", "Bob", "Carol"]
    assert cake["withheld"] == 2  # Bob's two sealed votes; live knows the second replaced the first

    whole = list_archive(live, tmp_path / "whole.mbox")
    replay_archive(replay.app, whole, MaildirTransport(tmp_path / "out"), until=live.at(2, 1))
    for name in VIEWS:
        assert replay.view(name).data == live.view(name).data, name
    assert replay.sent() == list_mails(live)


def change_record(raw: bytes, old: bytes, new: bytes) -> bytes:
    """``raw`` with ``old`` replaced by ``new`` inside the record it carries, if there."""
    mail = message_from_bytes(raw, policy=default)
    for part in mail.walk():
        payload = part.get_payload(decode=True) if part.get_content_type() == RECORD_TYPE else b""
        if isinstance(payload, bytes) and old in payload:
            part.set_payload(base64.encodebytes(payload.replace(old, new)).decode())
    return mail.as_bytes()


def resigned_reveal(game: Game, old: str, new: str) -> Callable[[bytes], bytes]:
    """A change that makes each reveal say ``new`` for ``old``, signed with the bot's own key."""
    key = signing_key(game.app.services)
    settings = game.app.settings

    def change(raw: bytes) -> bytes:
        mail = message_from_bytes(raw, policy=default)
        if not isinstance(mail, EmailMessage) or RECORD_TYPE not in raw.decode("ascii", "replace"):
            return raw
        document = record_json(mail)
        if document["command"] != "private.reveal":
            return raw
        arguments = json.loads(json.dumps(document["arguments"]).replace(old, new))
        record = AdminRecord(
            document["record"],
            document["command"],
            arguments,
            datetime.fromisoformat(document["issued_at"]),
        )
        _, forged = compose_record_mail(
            record,
            key,
            settings.bot.address,
            settings.bot.name,
            settings.bot.list_address,
            services=game.app.services,  # the enabled games describe their own acts
        )
        return forged

    return change


def refusals(game: Game) -> list[str]:
    with game.app.session_factory() as session:
        return [post.reason for post in refused_posts(session)]


def test_a_tampered_reveal_is_refused_with_the_reason(
    new_game: GameFactory, tmp_path: Path
) -> None:
    live = new_game()
    play(live)
    old, new = f'"text": "I vote {SECRET_WORD} on 100"'.encode(), b'"text": "I vote yes on 100"'
    archive = list_archive(live, tmp_path / "list.mbox", lambda raw: change_record(raw, old, new))
    replay = replayed(live, archive, tmp_path / "replay", live.at(2, 1))

    reasons = refusals(replay)
    assert any("the reveal of poll" in reason and "does not verify" in reason for reason in reasons)
    assert any("signature does not verify" in reason for reason in reasons)
    # The commitments it opens are refused, so Bob's private vote is not counted.
    (results,) = replay.sent_of("ballot-results")
    assert SECRET_WORD not in results.body


def test_a_reveal_signed_by_the_bot_that_does_not_match_is_refused(
    new_game: GameFactory, tmp_path: Path
) -> None:
    # Not even the referee's own key makes a reveal open a commitment to another vote.
    live = new_game()
    play(live)
    change = resigned_reveal(live, f"I vote {SECRET_WORD} on 100", "I vote yes on 100")
    archive = list_archive(live, tmp_path / "list.mbox", change)
    replay = replayed(live, archive, tmp_path / "replay", live.at(2, 1))

    reasons = refusals(replay)
    assert any("does not match it" in reason for reason in reasons), reasons


def audit(archive: Path, folder: Path, published: Path) -> tuple[int, list[str]]:
    """``nomicbot verify-private ARCHIVE`` as an auditor runs it, with the bot's published key."""
    config = write_config(folder, f'key_file = "{published}"\n')
    result = CliRunner().invoke(main, ["verify-private", str(archive), "--config", str(config)])
    return result.exit_code, result.output.splitlines()


def test_an_auditor_checks_every_commitment_against_its_reveal(
    new_game: GameFactory, tmp_path: Path
) -> None:
    live = new_game()
    play(live)
    published = live.app.settings.data_path / GENERATED_RECORD
    archive = list_archive(live, tmp_path / "list.mbox")
    status, lines = audit(archive, tmp_path / "auditor", published)
    assert status == 0, lines
    assert lines[-1] == (
        "4 private vote(s) committed to: 4 revealed and matching, 0 not revealed yet; 0 failure(s)"
    )
    assert sum(line.startswith("ok poll ") for line in lines) == 4
    assert any(f"Bob voted 'I vote {SECRET_WORD} on 100'" in line for line in lines), lines

    change = resigned_reveal(live, f"I vote {SECRET_WORD} on 100", "I vote yes on 100")
    forged = list_archive(live, tmp_path / "forged.mbox", change)
    status, lines = audit(forged, tmp_path / "auditor", published)
    assert status == 1 and any("FAIL" in line and "hashes to" in line for line in lines), lines


def test_an_auditor_lists_the_commitments_not_revealed_yet(
    new_game: GameFactory, tmp_path: Path
) -> None:
    live = new_game()
    play_into_the_voting_period(live)
    archive = list_archive(live, tmp_path / "list.mbox")
    published = live.app.settings.data_path / GENERATED_RECORD
    audit_report = verify_private_votes(
        archive,
        live.app.settings.bot_domain,
        auditor(live, tmp_path / "a").services.pipeline_settings.trust.lookup(),
    )
    assert audit_report.ok and (audit_report.matched, audit_report.pending) == (0, 3)
    status, lines = audit(archive, tmp_path / "auditor", published)
    assert status == 0 and lines[-1].startswith("3 private vote(s) committed to: 0 revealed")


def test_a_commitment_binds_the_vote_and_hides_it_behind_the_nonce() -> None:
    action = {"action": "polls.vote", "voter": "Bob", "args": {"vote": SECRET_WORD}, "poll": 1}
    reordered = dict(reversed(list(action.items())))
    assert commitment_of(action, "00" * 16) == commitment_of(reordered, "00" * 16)
    assert commitment_of(action, "00" * 16) != commitment_of(action, "01" * 16)
    changed = {**action, "args": {"vote": "yes"}}
    assert commitment_of(changed, "00" * 16) != commitment_of(action, "00" * 16)
