"""A generated B Nomic game as a sequence of planned posts, with expected rulings.

Test-data generation for bench/pipeline.py (seeded; not game randomness).
Posts are planned one Checking Period at a time (rule 3 A of seed 004: nweeks
of ten ndays, Checking Periods starting on ndays 1, 4 and 8), so that each
player makes about one Move per Checking Period as rule 1639 C allows.  The
Political Go game is simulated with the pure rules package ``bot.games.go``,
the same functions the engine calls, so most Moves are legal and the
expected ruling of every action is known; the benchmark compares these with
the referee's action log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import archive_text as words
from archive_text import PostText, Quote

from bot.engine.clock import GameClock
from bot.games import go
from bot.games.errors import ActionError
from bot.games.go.points import neighbour_table

EPOCH = datetime(2023, 1, 1, tzinfo=UTC)  # a UTC midnight: nweek 1, nday 1
PERIOD_FIRST_NDAY = (0, 3, 7)  # rule 3 A: Checkpoints into ndays 4, 8 and 1 (one-based)
NDAYS_PER_NWEEK = 10
BOARD_SIZE = 9
LIST_TAG = "[Nomic]"
QUOTED_LINES = 14  # mail clients quote everything; readers trim; we keep a typical tail


@dataclass(frozen=True)
class Person:
    name: str
    address: str
    client: str  # how eir mail looks: see archive_mail.CLIENT_SHAPES


CONFIGURED_PLAYERS: tuple[Person, ...] = (
    Person("Alice", "alice@gmail.example", "gmail"),
    Person("Bob", "bob@example.org", "thunderbird"),
    Person("Carol", "carol@corp.example", "outlook"),
    Person("Dave", "dave@me.example", "apple"),
    Person("Erin", "erin@gmail.example", "gmail"),
    Person("Frank", "frank@yahoo.example", "yahoo"),
    Person("Grace", "grace@cs.example.edu", "mutt"),
    Person("Zoë", "zoe@example.fr", "thunderbird"),
)
# External Forces who register part-way through (rule 14), and one who never does.
NEWCOMERS: tuple[Person, ...] = (
    Person("Heidi", "heidi@gmail.example", "gmail"),
    Person("Ivan", "ivan@mail.example.ru", "webmail"),
)
OUTSIDER = Person("Mallory", "mallory@example.com", "gmail")


@dataclass(frozen=True)
class Expected:
    """The ruling the referee should give one action: (dotted action, outcome)."""

    action: str
    outcome: str  # "applied", "rejected" or "not_taken"


@dataclass(frozen=True)
class PlannedPost:
    number: int
    kind: str
    author: Person
    at: datetime
    subject: str
    message_id: str
    references: tuple[str, ...]
    text: PostText
    expected: tuple[Expected, ...] = ()
    expects_reply: bool = False  # a ruling reply: some action or a not-understood clause
    automatic: bool = False  # an auto-reply the loop guard must ignore

    def quotable_lines(self) -> tuple[str, ...]:
        """What a reply quotes: the author's lines, then the quote e kept."""
        own = self.text.visible_lines()
        kept = (
            self.text.quote.lines if self.text.quote and not self.text.quote.outlook_style else ()
        )
        return (*own, "", *(f"> {line}" if line else ">" for line in kept))[:QUOTED_LINES]


@dataclass(frozen=True)
class Action:
    """One action sentence as typed, and the rulings it should get."""

    line: str
    expected: tuple[Expected, ...]
    expects_reply: bool = True


class GoSimulation:
    """The Political Go state, advanced by the same pure functions the engine uses."""

    def __init__(self, names: Sequence[str]) -> None:
        parameters = go.GoParameters(size=BOARD_SIZE)
        self.state = go.add_players(go.new_game(parameters), names)
        self.neighbours = neighbour_table(BOARD_SIZE)

    def join(self, name: str) -> None:
        self.state = go.add_players(self.state, (name,))

    def attempt(self, move: Callable[[go.GoState], go.MoveResult]) -> str:
        """Apply ``move`` if legal; the outcome the referee should record."""
        try:
            result = move(self.state)
        except ActionError:
            return "rejected"
        self.state = result.state
        return "applied"

    def legal_point(self, chooser: random.Random, context: go.MoveContext) -> int | None:
        """A point where ``context.player`` may place a Stone, preferring contact play."""
        for point in self.candidate_points(chooser)[:12]:
            try:
                go.place_stone(self.state, context, point)
            except ActionError:
                continue
            return point
        return None

    def candidate_points(self, chooser: random.Random) -> list[int]:
        board = self.state.board
        empty = [point for point in range(len(board)) if board[point] == 0]
        near = [p for p in empty if any(board[n] for n in self.neighbours[p])]
        chooser.shuffle(empty)
        chooser.shuffle(near)
        return near + empty if near and chooser.random() < 0.7 else empty

    def occupied_point(self, chooser: random.Random) -> int | None:
        stones = sorted(self.state.stones)
        return chooser.choice(stones) if stones else None


def point_name(point: int) -> str:
    return go.format_point(point, BOARD_SIZE)


@dataclass
class PeriodState:
    """Who has posted a Move in the Checking Period being planned."""

    index: int
    moved: set[str] = field(default_factory=set)


class ArchivePlanner:
    """Plans ``count`` posts: moves, dice, chatter, replies, auto-replies."""

    def __init__(self, seed: int) -> None:
        self.chooser = random.Random(seed)
        self.clock = GameClock(EPOCH, ())
        self.players: list[Person] = list(CONFIGURED_PLAYERS)
        self.waiting = list(NEWCOMERS)
        self.game = GoSimulation([person.name for person in self.players])
        self.posts: list[PlannedPost] = []

    # --- the timeline -------------------------------------------------------

    def plan(self, count: int) -> list[PlannedPost]:
        period = 0
        while len(self.posts) < count:
            self._plan_period(PeriodState(period), count)
            period += 1
        return self.posts[:count]

    def _plan_period(self, period: PeriodState, count: int) -> None:
        kinds = self._period_kinds(count)
        for (kind, author), at in zip(kinds, self._times(period.index, len(kinds)), strict=True):
            clock_period = self.clock.reading(at).checking_period
            assert clock_period == period.index, (at, clock_period, period.index)
            self.posts.append(self._post(kind, author, at, period))

    def _period_kinds(self, count: int) -> list[tuple[str, Person]]:
        chance = self.chooser.random
        kinds = [("move", person) for person in self.players if chance() < 0.8]
        kinds += [("dice", self._poster()) for _ in range(self.chooser.randint(2, 5))]
        kinds += [("chatter", self._poster()) for _ in range(self.chooser.randint(16, 30))]
        optional = {"second_move": 0.5, "conditional": 0.25, "not_understood": 0.25}
        optional |= {"alliance": 0.3, "outsider": 0.2, "auto_reply": 0.2}
        kinds += [(kind, self._poster()) for kind, odds in optional.items() if chance() < odds]
        if self.waiting and len(self.posts) >= count * (len(NEWCOMERS) - len(self.waiting) + 1) / 3:
            kinds.append(("register", self.waiting[0]))
        self.chooser.shuffle(kinds)
        return kinds

    def _poster(self) -> Person:
        # Some players write far more than others.
        weights = [len(self.players) - index for index in range(len(self.players))]
        return self.chooser.choices(self.players, weights)[0]

    def _times(self, period: int, count: int) -> list[datetime]:
        start, end = period_bounds(period)
        span = int((end - start).total_seconds()) - 120
        offsets = sorted(self.chooser.randrange(span) for _ in range(count))
        return [start + timedelta(seconds=60 + offset) for offset in offsets]

    # --- one post -------------------------------------------------------------

    def _post(self, kind: str, author: Person, at: datetime, period: PeriodState) -> PlannedPost:
        if kind == "auto_reply":
            return self._auto_reply(author, at)
        actions = self._actions(kind, author, period)
        if kind == "outsider":
            author = self.waiting[0] if self.waiting else OUTSIDER
        if kind == "register":
            author = self.waiting.pop(0)
            self.players.append(author)
            self.game.join(author.name)
        return self._compose(kind, author, at, actions)

    def _actions(self, kind: str, author: Person, period: PeriodState) -> list[Action]:
        handlers: dict[str, Callable[[], list[Action]]] = {
            "move": lambda: [self._move(author, period)],
            "second_move": lambda: self._second_move(author, period),
            "dice": lambda: [self._dice()],
            "conditional": lambda: [self._conditional(author)],
            "not_understood": lambda: [self._not_understood()],
            "alliance": lambda: [self._alliance(author, period)],
            "outsider": lambda: [self._outsider_move()],
            "register": lambda: [self._registration()],
            "chatter": lambda: self._decoys(),
        }
        return handlers[kind]()

    def _compose(
        self, kind: str, author: Person, at: datetime, actions: list[Action]
    ) -> PlannedPost:
        parent = self._parent()
        paragraphs = self._paragraphs(kind, author, actions)
        signature, delimited = words.signature_for(self.chooser, author.name)
        quote = self._quote(parent, author) if parent else None
        text = PostText(
            paragraphs=tuple(paragraphs),
            quote=quote,
            quote_first=not (quote and quote.outlook_style),
            signature=signature,
            signature_delimited=delimited,
        )
        number = len(self.posts) + 1
        return PlannedPost(
            number=number,
            kind=kind,
            author=author,
            at=at,
            subject=_reply_subject(parent.subject) if parent else self._new_subject(kind),
            message_id=self._message_id(number, author),
            references=(*parent.references[-7:], parent.message_id) if parent else (),
            text=text,
            expected=tuple(item for action in actions for item in action.expected),
            expects_reply=any(action.expects_reply for action in actions),
        )

    def _paragraphs(
        self, kind: str, author: Person, actions: list[Action]
    ) -> list[tuple[str, ...]]:
        others = [person.name for person in self.players if person != author]
        points = [point_name(point) for point in range(BOARD_SIZE * BOARD_SIZE)]
        before = self.chooser.randint(0, 1) if kind != "chatter" else self.chooser.randint(1, 3)
        paragraphs = words.chatter_paragraphs(self.chooser, others, points, before)
        greeting = words.greeting(self.chooser)
        if greeting:
            paragraphs.insert(0, greeting)
        paragraphs += [(action.line,) for action in actions if action.line]
        after = self.chooser.randint(0, 1)
        return paragraphs + words.chatter_paragraphs(self.chooser, others, points, after)

    def _parent(self) -> PlannedPost | None:
        recent = [post for post in self.posts[-10:] if not post.automatic]
        if not recent or self.chooser.random() < 0.4:
            return None
        return self.chooser.choice(recent)

    def _quote(self, parent: PlannedPost, author: Person) -> Quote:
        outlook = author.client == "outlook"
        when = parent.at.strftime("%a, %d %b %Y at %H:%M")
        attribution = (
            f"From: {parent.author.name} <{parent.author.address}>\nSent: {when}\n"
            f"To: nomic@lists.example.org\nSubject: {parent.subject}"
            if outlook
            else f"On {when}, {parent.author.name} <{parent.author.address}> wrote:"
        )
        return Quote(attribution, parent.quotable_lines(), outlook_style=outlook)

    def _new_subject(self, kind: str) -> str:
        topics = {
            "move": "Political Go",
            "second_move": "Political Go",
            "alliance": "Go alliances",
            "dice": "Dice for the Arena",
            "register": "Joining the game",
        }
        number = self.chooser.randint(4000, 4999)
        default = self.chooser.choice([f"Proposal {number}", f"CFI {number % 300}", "Chatter"])
        return f"{LIST_TAG} {topics.get(kind, default)}"

    def _message_id(self, number: int, author: Person) -> str:
        token = f"{self.chooser.getrandbits(64):016x}"
        return f"{token}.{number}@{author.address.partition('@')[2]}"

    def _auto_reply(self, author: Person, at: datetime) -> PlannedPost:
        parent = self.posts[-1]
        text = PostText(
            paragraphs=(
                ("I am out of the office until next week, with limited access to e-mail.",),
                ("For urgent matters, please contact the Speaker.",),
            ),
        )
        number = len(self.posts) + 1
        return PlannedPost(
            number=number,
            kind="auto_reply",
            author=author,
            at=at,
            subject=f"Automatic reply: {parent.subject}",
            message_id=self._message_id(number, author),
            references=(parent.message_id,),
            text=text,
            automatic=True,
        )

    # --- actions ----------------------------------------------------------------

    def _context(self, author: Person, period: PeriodState) -> go.MoveContext:
        return go.MoveContext(author.name, period.index)

    def _move(self, author: Person, period: PeriodState) -> Action:
        roll = self.chooser.random()
        if roll < 0.04:
            return self._illegal_placement(author, period)
        context = self._context(author, period)
        point = self.game.legal_point(self.chooser, context) if roll < 0.9 else None
        period.moved.add(author.name)
        if point is None:
            outcome = self.game.attempt(lambda state: go.pass_move(state, context))
            line = self.chooser.choice(["I pass.", "I pass this turn.", "I pass in Political Go."])
            return self._maybe_with_dice(line, Expected("go.pass", outcome))
        outcome = self.game.attempt(lambda state: go.place_stone(state, context, point))
        return self._maybe_with_dice(
            _placement_line(self.chooser, point), Expected("go.place", outcome)
        )

    def _maybe_with_dice(self, line: str, expected: Expected) -> Action:
        if self.chooser.random() >= 0.15:
            return Action(line, (expected,))
        spec = self.chooser.choice(["2d6", "a d6", "3d6", "a d20"])
        return Action(
            f"{line.rstrip('.')} and roll {spec}.", (expected, Expected("dice.roll", "applied"))
        )

    def _illegal_placement(self, author: Person, period: PeriodState) -> Action:
        occupied = self.game.occupied_point(self.chooser)
        if occupied is None or self.chooser.random() < 0.3:
            # Rule 1639 A: the board is 9x9, columns A to I.
            where = self.chooser.choice(["K3", "J9", "A12", "T19"])
            return Action(f"I place a stone at {where}.", (Expected("go.place", "rejected"),))
        context = self._context(author, period)
        outcome = self.game.attempt(lambda state: go.place_stone(state, context, occupied))
        return Action(_placement_line(self.chooser, occupied), (Expected("go.place", outcome),))

    def _second_move(self, author: Person, period: PeriodState) -> list[Action]:
        if author.name not in period.moved:
            return self._decoys()
        context = self._context(author, period)
        point = self.game.candidate_points(self.chooser)[0]
        outcome = self.game.attempt(lambda state: go.place_stone(state, context, point))
        return [Action(_placement_line(self.chooser, point), (Expected("go.place", outcome),))]

    def _dice(self) -> Action:
        choice = self.chooser.random()
        if choice < 0.03:
            return Action(
                "I roll 500d6.", (Expected("dice.roll", "rejected"),)
            )  # over the bot's limit
        if choice < 0.15:
            applied = Expected("dice.roll", "applied")
            return Action("I roll 2d6 twice.", (applied, applied))  # rule 1896: repeated
        line = self.chooser.choice(
            ["I roll 3d6.", "I roll a d20 for the Arena.", "I roll two d10.", "I roll 1d100."]
        )
        return Action(line, (Expected("dice.roll", "applied"),))

    def _conditional(self, author: Person) -> Action:
        other = self.chooser.choice([p.name for p in self.players if p != author])
        return Action(f"If {other} passes, I pass.", (Expected("go.pass", "not_taken"),))

    def _not_understood(self) -> Action:
        return Action("I place a stone somewhere near the middle.", ())

    def _alliance(self, author: Person, period: PeriodState) -> Action:
        context = self._context(author, period)
        state = self.game.state
        asked = sorted(first for first, second in state.pending_consents if second == author.name)
        allies = sorted(state.allies_of(author.name))
        if allies and self.chooser.random() < 0.5:
            ally = self.chooser.choice(allies)
            outcome = self.game.attempt(lambda s: go.break_alliance(s, context, ally))
            return Action(
                f"I break my alliance with {ally}.", (Expected("go.break_alliance", outcome),)
            )
        others = [p.name for p in self.players if p != author]
        ally = asked[0] if asked else self.chooser.choice(others)
        outcome = self.game.attempt(lambda s: go.consent_to_alliance(s, context, ally))
        return Action(f"I consent to an alliance with {ally}.", (Expected("go.ally", outcome),))

    def _outsider_move(self) -> Action:
        # Rule 14: only Players take game actions; the point does not matter.
        point = point_name(self.chooser.randrange(BOARD_SIZE * BOARD_SIZE))
        return Action(f"I place a stone at {point}.", (Expected("go.place", "rejected"),))

    def _registration(self) -> Action:
        name = self.waiting[0].name
        line = f"I request to become a player with the name {name}."
        return Action(line, (Expected("roster.register", "applied"),))

    def _decoys(self) -> list[Action]:
        if self.chooser.random() >= 0.1:
            return []
        others = [person.name for person in self.players]
        points = [point_name(point) for point in range(BOARD_SIZE * BOARD_SIZE)]
        return [Action(words.decoy_line(self.chooser, others, points), (), expects_reply=False)]


def _placement_line(chooser: random.Random, point: int) -> str:
    where = point_name(point)
    forms = [
        f"I place a stone at {where}.",
        f"I play {where.lower()}.",
        f"I put a stone on {where}.",
        f"I hereby place a stone at {where}.",
        f"Place a stone at {where}.",
        f"I place a stone at {where} [[to protect my group]].",
    ]
    return chooser.choice(forms)


def _reply_subject(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def period_bounds(period: int) -> tuple[datetime, datetime]:
    return period_start(period), period_start(period + 1)


def period_start(period: int) -> datetime:
    nweek, position = divmod(period, len(PERIOD_FIRST_NDAY))
    return EPOCH + timedelta(days=NDAYS_PER_NWEEK * nweek + PERIOD_FIRST_NDAY[position])


def plan_archive(count: int, seed: int) -> list[PlannedPost]:
    return ArchivePlanner(seed).plan(count)
