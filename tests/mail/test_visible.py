"""Unit tests for visible_text: replies, copies, signatures, rule 8 comments."""

from __future__ import annotations

import pytest

from bot.mail.comments import comment_spans, strip_comments
from bot.mail.visible import visible_text

# --- quotes and attributions ------------------------------------------------------


def test_quoted_lines_and_their_attribution_are_dropped() -> None:
    body = (
        "I vote FOR 1234.\n\nOn Mon, 2 Jan 2023 at 10:00, Bob <bob@example.test> wrote:\n> x\n>> y"
    )
    assert visible_text(body) == "I vote FOR 1234."


def test_interleaved_reply_keeps_each_of_the_authors_blocks() -> None:
    body = (
        "On Mon, 2 Jan 2023, Bob wrote:\n"
        "> Do you vote on 12?\n"
        "I vote FOR 12.\n"
        ">\n"
        "> And on 13?\n"
        "\n"
        "\n"
        "AGAINST 13.\n"
        "> bye\n"
    )
    assert visible_text(body) == "I vote FOR 12.\n\nAGAINST 13."


@pytest.mark.parametrize(
    "attribution",
    [
        "On Dec 16, 2011, at 12:47 PM, Corey Donohoe\n<reply@reply.github.com>\nwrote:",
        "Am 02.04.2012 14:20 schrieb Bob <bob@example.test>:",
        "Le 2 avr. 2012 à 14:20, Bob <bob@example.test> a écrit :",
        'El 2 abr 2012, a las 14:20, "Bob" <bob@example.test> escribió:',
        '02.04.2012 14:20 пользователь "bob@example.test" <\nbob@example.test> написал:',
        "Thu, 26 Jun 2014 14:00:51 +0400 от Alexander L <abc@example.com>:",
        '26.06.2014, 14:41, "Alexander L" <abc@example.com>:',
        "Bob wrote:",
    ],
)
def test_attribution_variants(attribution: str) -> None:
    body = f"FOR 1234\n\n{attribution}\n\n> Hi\n> there"
    assert visible_text(body) == "FOR 1234"


def test_dated_attribution_without_quote_marks_cuts_the_rest() -> None:
    # Gmail's "inbox" style and many webmails quote without ">".
    body = "FOR 1234\n\nOn Wed, May 18, 2016 at 11:10 PM Bob <bob@example.test>\nwrote:\n\nold text"
    assert visible_text(body) == "FOR 1234"


def test_lines_that_merely_start_with_on_are_kept() -> None:
    body = "On your remote host you can run:\n\n    telnet 127.0.0.1 52698\n\nOn reflection, FOR."
    assert visible_text(body) == body


def test_sentence_above_an_attribution_is_not_swallowed() -> None:
    body = "On reflection, I agree.\nBob wrote:\n> x"
    assert visible_text(body) == "On reflection, I agree."


def test_wrote_without_a_quote_or_date_is_kept() -> None:
    body = "As the Speaker wrote:\nproposals need a title."
    assert visible_text(body) == body


# --- copies of other messages ---------------------------------------------------------


@pytest.mark.parametrize(
    "copy",
    [
        "-----Original Message-----\nFrom: bob\nhi",
        "----- Original Message -----\nhi",
        "---------- Forwarded message ---------\nFrom: Bob\nhi",
        "-----Ursprüngliche Nachricht-----\nVon: Bob",
        "Begin forwarded message:\n\nFrom: Bob",
        "________________________________\nFrom: Bob [bob@example.test]\nSent: Friday\nTo: Al\n"
        "Subject: x\n\nhi",
        "*From:* Bob [mailto:bob@example.test]\n*Sent:* Monday\n*To:* a@example.test\n"
        "*Subject:* Re: x",
        "Von: Bob\nGesendet: Montag\nAn: Al\nBetreff: x\n\nhallo",
        "От: Bob\nОтправлено: четверг\nКому: Alex\n\nпривет",
        "_______________________________________________\nNomic mailing list -- nomic@ex.test\n"
        "To unsubscribe send an email to nomic-leave@ex.test",
        "_______________________________________________\nriak-users mailing list\n"
        "riak-users@lists.basho.com\nhttp://lists.basho.com/mailman/listinfo/riak-users",
    ],
)
def test_copies_of_other_messages_are_cut(copy: str) -> None:
    assert visible_text(f"I vote FOR 1234\n\n{copy}") == "I vote FOR 1234"


def test_two_header_lines_are_not_a_copy() -> None:
    body = "From: my treasury\nTo: Bob's treasury\n5 points"
    assert visible_text(body) == body


def test_underscores_alone_are_not_a_footer() -> None:
    body = "Proposal\n______________________________\nRule text"
    assert visible_text(body) == body


# --- signatures ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("FOR 12\n\n-- \nAlice\nhttp://alice.example", "FOR 12"),
        ("FOR 12\n\n--\nAlice", "FOR 12"),
        ("FOR 12\n\nSent from my iPhone", "FOR 12"),
        ("FOR 12\n\nSent from my Verizon Wireless BlackBerry", "FOR 12"),
        ("FOR 12\n\nSent with Sparrow (http://www.sparrowmailapp.com/?sig)", "FOR 12"),
        ("FOR 12\n\nGet Outlook for Android", "FOR 12"),
        ("FOR 12\n\nVon meinem iPhone gesendet", "FOR 12"),
        ("FOR 12\n\n-Alice Liddell", "FOR 12"),
        ("FOR 12\n\n-Alice\n\nSent from my iPhone", "FOR 12"),
    ],
)
def test_trailing_signatures_are_dropped(body: str, expected: str) -> None:
    assert visible_text(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "FOR 12\n\nSent from my desk, which is easier than my phone.",
        "I vote:\n\n-FOR 12",
        "Votes:\n\n- Alice",
        "And here is a fix -- this is not a signature.",
        "--\nonly a signature",
        "FOR 12\n--\n" + "\n".join(f"line {number}" for number in range(12)),
    ],
)
def test_text_that_is_not_a_signature_is_kept(body: str) -> None:
    assert visible_text(body) == body


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("I vote FOR 12.\n\nThanks,\nAlice", "I vote FOR 12."),
        ("I vote FOR 12.\n\nAlice Liddell\nvia mobile", "I vote FOR 12."),
        (
            "I vote FOR 12.\n\nA. Liddell\nalice@example.test\nhttp://alice.example",
            "I vote FOR 12.",
        ),
        ("I vote FOR 12.\n\n-------\nlogo\n\nMe Alice Liddell", "I vote FOR 12."),
    ],
)
def test_signatures_naming_the_sender(body: str, expected: str) -> None:
    assert visible_text(body, sender="Alice Liddell <alice@example.test>") == expected


@pytest.mark.parametrize(
    "body",
    [
        "Some text.\n\nAlice transfers 5 points to Bob",
        "Some text.\n\nAlice FOR",
        "Some text.\n\nAlice: AGAINST 1235",
        "Alice",
    ],
)
def test_lines_naming_the_sender_that_are_actions_are_kept(body: str) -> None:
    assert visible_text(body, sender="Alice <alice@example.test>") == body


def test_signature_only_stripped_without_sender_when_unambiguous() -> None:
    assert visible_text("I vote FOR 12.\n\nThanks,\nAlice") == "I vote FOR 12.\n\nThanks,\nAlice"


# --- rule 8 comments ------------------------------------------------------------------


def test_inline_and_multiline_comments_are_dropped() -> None:
    body = "I vote FOR 12 [[because it is good]]\n[[ a long\naside ]]\nI vote AGAINST 13"
    assert visible_text(body) == "I vote FOR 12\n\nI vote AGAINST 13"


def test_nested_comment_is_one_comment() -> None:
    assert strip_comments("a [[ b [[ c ]] d ]] e") == "a  e"


def test_unclosed_comment_opens_nothing_but_inner_pairs_still_count() -> None:
    assert strip_comments("FOR 12 [[ oops\nAGAINST 13") == "FOR 12 [[ oops\nAGAINST 13"
    assert strip_comments("[[ a [[ b ]] c") == "[[ a  c"


def test_stray_closing_brackets_are_literal() -> None:
    assert strip_comments("x ]] y [[z]]") == "x ]] y "


def test_comments_inside_delimited_rule_text_are_kept() -> None:
    # Rule 217: {{ }} delimit proposed text, whose own comments belong to it.
    body = "I propose {{ Players may juggle. [[ Juggling is fun. ]] }} [[ my aside ]]"
    assert strip_comments(body) == "I propose {{ Players may juggle. [[ Juggling is fun. ]] }} "
    assert comment_spans("[[ see {{ x }} ]]") == [(0, 17)]


def test_brackets_in_quoted_lines_do_not_pair_with_the_authors() -> None:
    body = "FOR 12 [[ unclosed\n> quoted ]] text\nAGAINST 13"
    assert visible_text(body) == "FOR 12 [[ unclosed\n\nAGAINST 13"


def test_a_comment_cannot_hide_an_attribution_end() -> None:
    body = "FOR 12\nOn 1/1/2024 Bob wrote: [[ sic ]]\nold text"
    once = visible_text(body)
    assert once == "FOR 12"
    assert visible_text(once) == once


# --- layout ----------------------------------------------------------------------------


def test_line_endings_trailing_space_and_indentation() -> None:
    body = "\r\n\r\n   indented FOR 12   \r\nnext\rlast\t\n\n\n"
    assert visible_text(body) == "   indented FOR 12\nnext\nlast"


def test_authors_blank_lines_and_wrapping_are_kept() -> None:
    body = "a long line that the author\nwrapped here\n\n\n\nafter three blank lines"
    assert visible_text(body) == body


def test_empty_and_blank_bodies() -> None:
    assert visible_text("") == ""
    assert visible_text(" \n\t\n") == ""
    assert visible_text("> only a quote") == ""
