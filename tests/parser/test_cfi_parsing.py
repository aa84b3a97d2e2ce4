"""Reading CFIs (rule 125): submission, the Defendant's Argument, votes, and the sections."""

from __future__ import annotations

import pytest

from bot.games.errors import ActionSyntaxError
from bot.parser.areas.cfi import read_document, resolution_items
from bot.parser.post import parse_post


def actions(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(action.action, dict(action.args)) for action in parse_post(text).actions]


def test_a_cfi_with_its_sections_in_one_block() -> None:
    text = (
        "I submit a CFI: {{ __Rooms__\nDefendant: Bob\nArgument: Bob moved.\n"
        "Resolution:\n- undo the move\n- Bob loses 1 point\n}}"
    )
    ((action, args),) = actions(text)
    assert action == "cfi.submit" and args["title"] == "Rooms"
    document = read_document(str(args["text"]), str(args["title"]))
    assert document.defendant == "Bob" and document.argument == "Bob moved."
    assert document.resolution == ("undo the move", "Bob loses 1 point")


@pytest.mark.parametrize(
    "text",
    [
        'I submit a CFI against Bob titled "Rooms": {{ Bob moved. Resolution: undo }}',
        "I call shenanigans against Bob: __Rooms__ {{ Bob moved. Resolution: undo }}",
        "I hereby file a CFJ against Bob: {{ __Rooms__ Bob moved. Resolution: undo }}",
        "I submit the following Call for Inquiry against Bob: {{ __Rooms__ Bob moved. "
        "Resolution: undo }}",
    ],
)
def test_the_ways_of_writing_a_submission(text: str) -> None:
    ((action, args),) = actions(text)
    assert action == "cfi.submit"
    assert (args["defendant"], args["title"]) == ("Bob", "Rooms")
    assert read_document(str(args["text"]), str(args["title"])).resolution == ("undo",)


def test_proposals_are_still_proposals() -> None:
    assert [a for a, _ in actions("I submit a proposal: __Cake__ {{ Cake. }}")] == [
        "proposals.submit"
    ]
    assert [a for a, _ in actions("I submit the following proposal: {{ Cake. }}")] == [
        "proposals.submit"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "As Defendant in CFI 3 I argue {{ I was right }}",
        "As the Defendant on CFI #3, I argue: {{ I was right }}",
    ],
)
def test_the_defendants_argument(text: str) -> None:
    assert actions(text) == [("cfi.argue", {"number": 3, "text": "I was right"})]


def test_votes_on_cfis_with_true_false_and_refused() -> None:
    assert actions("I vote Refused on CFJ 4 and 5, false on cfi 6") == [
        ("cfi.vote", {"vote": "Refused", "on": "cfi", "number": 4}),
        ("cfi.vote", {"vote": "Refused", "on": "cfi", "number": 5}),
        ("cfi.vote", {"vote": "false", "on": "cfi", "number": 6}),
    ]
    assert actions("I vote TRUE on CFI #3") == [
        ("cfi.vote", {"vote": "TRUE", "on": "cfi", "number": 3})
    ]


def test_other_votes_are_unchanged_and_a_mixed_vote_is_not_understood() -> None:
    assert [a for a, _ in actions("I vote FOR 12 and yes on poll 3")] == ["polls.vote"] * 2
    result = parse_post("I vote TRUE on CFI 3 and FOR 12")
    assert result.actions == () and len(result.not_understood) == 1


def test_a_block_of_prose_inside_a_cfi_is_not_read_as_actions() -> None:
    assert actions("I submit a CFI: {{ __T__ I vote FOR 12. Resolution: I pass }}") == [
        ("cfi.submit", {"text": "I vote FOR 12. Resolution: I pass", "title": "T"})
    ]


def test_missing_parts_are_syntax_errors() -> None:
    with pytest.raises(ActionSyntaxError, match="a Title and a Resolution"):
        read_document("just an argument")
    with pytest.raises(ActionSyntaxError, match="twice"):
        read_document("A. Resolution: x\nResolution: y", "T")


def test_resolution_items() -> None:
    assert resolution_items("1. one\n2) two\n") == ("one", "two")
    assert resolution_items("Bob loses\n a point") == ("Bob loses a point",)
    assert resolution_items("") == ()
