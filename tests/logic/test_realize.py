"""Template English: the paper's phrasings, the lexicon's guarantees, and the round trip read(realize(f)) == f."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.lexicon import Lexicon, LexiconError, lexicon_for
from lgmt_tasks.logic.phrasing import EQ_TEMPLATE, capitalize, fold, looks_abstract, split_name
from lgmt_tasks.logic.read import EnglishSyntaxError, read, read_clause
from lgmt_tasks.logic.realize import RealizationError, realize, realize_clause
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Var,
    Xor,
    signature,
)
from tests.fol_strategies import formulas

x, y, z = Var("x"), Var("y"), Var("z")


def P(name: str, *args: str | Var | Const) -> Atom:
    """Atom with string args read as constants."""
    return Atom(name, tuple(Const(a) if isinstance(a, str) else a for a in args))


def roundtrip(f: Formula, lx: Lexicon) -> str:
    text = realize(f, lx)
    assert read(text, lx) == f, text
    assert read_clause(realize_clause(f, lx), lx) == f
    return text


def say(f: Formula, style: str = "natural") -> str:
    return roundtrip(f, lexicon_for([f], style=style))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the paper's examples (Appendix C.2)


def test_double_negation_is_kept() -> None:
    f = Not(Not(P("Orange", "stanley")))
    assert say(f) == "It is not the case that it is not the case that Stanley is orange."


def test_abstract_names_use_formal_phrasing_and_comma_after_complex_left() -> None:
    f = And((Not(P("Pre4", x)), P("Pre1", x)))
    assert say(f) == "Both it is not the case that x has property Pre4, and x has property Pre1."


def test_universal_conditional() -> None:
    f = Forall("x", Implies(P("Bitter", x), Not(P("Dull", x))))
    assert say(f) == "For all x, if x is bitter, then it is not the case that x is dull."
    assert say(f, "abstract") == (
        "For all x, if x has property Bitter, then it is not the case that x has property Dull."
    )


def test_biconditional_with_logical_constant() -> None:
    f = Iff(P("P", "Con1"), Or((P("Q", "Con2"), FALSE)))
    assert say(f) == "Con1 has property P if and only if, either Con2 has property Q or it is logically false."


def test_appendix_b_example() -> None:
    premises = [
        P("NeighbourhoodIn", "lawtonPark", "seattle"),
        Forall("x", Implies(P("ResidentOf", x, "lawtonPark"), P("UseZipCode", x, "num98199"))),
        P("ResidentOf", "tom", "lawtonPark"),
        P("UseZipCode", "daniel", "num98199"),
    ]
    conclusion = P("ResidentOf", "tom", "washington")
    followup = Forall("x", Or((Not(P("ResidentOf", x, "lawtonPark")), P("UseZipCode", x, "num98199"))))
    lx = lexicon_for([*premises, conclusion, followup])
    assert [roundtrip(f, lx) for f in premises] == [
        "Lawton Park is a neighbourhood in Seattle.",
        "For all x, if x is resident of Lawton Park, then x uses zip code 98199.",
        "Tom is resident of Lawton Park.",
        "Daniel uses zip code 98199.",
    ]
    assert roundtrip(conclusion, lx) == "Tom is resident of Washington."
    assert roundtrip(followup, lx) == (
        "For all x, either it is not the case that x is resident of Lawton Park, or x uses zip code 98199."
    )
    assert lx.constant_phrase("lawtonPark") == "Lawton Park"


# --------------------------------------------------------------------------- connectives


@pytest.mark.parametrize(
    ("formula", "english"),
    [
        (TRUE, "It is logically true."),
        (And((P("Rain"), TRUE)), "Both rain is true and it is logically true."),
        (Or((P("Rain"), P("Rain"))), "Either rain is true or rain is true."),
        (Xor(P("Rain"), P("Snow")), "Either rain is true or snow is true, but not both."),
        (
            Xor(P("Rain"), Or((P("Snow"), P("Hail")))),
            "Exactly one of rain is true and either snow is true or hail is true.",
        ),
        (
            Or((P("Rain"), Xor(P("Snow"), P("Hail")))),
            "Either rain is true or either snow is true or hail is true, but not both.",
        ),
        (And((P("Rain"), P("Snow"), P("Hail"))), "All of rain is true, snow is true, and hail is true."),
        (Or((P("Rain"), P("Snow"), P("Hail"))), "At least one of rain is true, snow is true, or hail is true."),
        (And((P("Rain"), And((P("Snow"), P("Hail"))))), "Both rain is true and both snow is true and hail is true."),
        (And((And((P("Rain"), P("Snow"))), P("Hail"))), "Both both rain is true and snow is true, and hail is true."),
        (Iff(P("Rain"), P("Snow")), "Rain is true if and only if snow is true."),
        (
            Iff(Not(P("Rain")), P("Snow")),
            "It holds that it is not the case that rain is true, if and only if snow is true.",
        ),
        (
            And((Iff(P("Rain"), P("Snow")), P("Hail"))),
            "Both it holds that rain is true if and only if snow is true, and hail is true.",
        ),
        (Exists("x", P("Happy", x)), "There exists at least one x such that x is happy."),
        (
            Forall("x", Iff(P("Happy", x), Exists("y", P("Likes", x, y)))),
            "For all x, x is happy if and only if, there exists at least one y such that x likes y.",
        ),
        (
            Not(Forall("x", Iff(P("Happy", x), P("Rich", x)))),
            "It is not the case that for all x, it holds that x is happy if and only if x is rich.",
        ),
        (Eq(Const("tom"), Const("mr.smith")), "Tom is identical to Mr. Smith."),
        (P("Between", "alice", x, "bob"), "Alice, x and Bob stand in relation Between."),
    ],
)
def test_phrasings(formula: Formula, english: str) -> None:
    assert say(formula) == english


def test_no_simplification_of_nested_structure() -> None:
    a, b, c = P("Rain"), P("Snow"), P("Hail")
    texts = {say(f) for f in [And((a, b, c)), And((a, And((b, c)))), And((And((a, b)), c)), And((c, b, a))]}
    assert len(texts) == 4


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("ResidentOf", ("resident", "of")),
        ("lawtonPark", ("lawton", "park")),
        ("snake_case_name", ("snake", "case", "name")),
        ("BornIn1965", ("born", "in", "1965")),
        ("2008SummerOlympics", ("2008", "summer", "olympics")),
        ("mr.smith", ("mr.", "smith")),
        ("l-2021", ("l-2021",)),
        ("NBAPlayer", ("nba", "player")),
        ("well-knownAuthor", ("well-known", "author")),
        ("is_happy", ("is", "happy")),
    ],
)
def test_split_name(name: str, words: tuple[str, ...]) -> None:
    assert split_name(name) == words


@pytest.mark.parametrize("name", ["P", "Q2", "Pre1", "Con12", "c1", "y1984"])
def test_abstract_looking_names(name: str) -> None:
    assert looks_abstract(name)


@pytest.mark.parametrize("name", ["Rain", "Dog", "BornIn1965", "lawtonPark", "num98199x"])
def test_natural_names(name: str) -> None:
    assert not looks_abstract(name)


@pytest.mark.parametrize(
    ("formula", "english"),
    [
        (P("Happy", "tom"), "Tom is happy."),
        (P("CanFly", "tom"), "Tom can fly."),
        (P("HasPet", "tom"), "Tom has pet."),
        (P("Likes", "alice", "bob"), "Alice likes Bob."),
        (P("UseZipCode", "tom", "num98199"), "Tom uses zip code 98199."),
        (P("LiveIn", "tom", "paris"), "Tom lives in Paris."),
        (P("ResidentOf", "tom", "lawtonPark"), "Tom is resident of Lawton Park."),
        (P("Friend", "tom", "bob"), "Tom is a friend of Bob."),
        (P("BornIn1965", "mr.smith"), "Mr. Smith is born in 1965."),
        (P("ParticipatedIn", "l-2021", "2008SummerOlympics"), "L-2021 participated in 2008 Summer Olympics."),
        (P("P"), "P is true."),
        (P("Rain"), "Rain is true."),
    ],
)
def test_folio_like_names(formula: Formula, english: str) -> None:
    assert say(formula) == english


def test_abstract_style_keeps_raw_names() -> None:
    f = P("ResidentOf", "tom", "lawtonPark")
    assert say(f, "abstract") == "Tom bears relation ResidentOf to lawtonPark."


# --------------------------------------------------------------------------- collisions and fallbacks


def test_colliding_constants_fall_back() -> None:
    f = And((P("Happy", "lawtonPark"), P("Happy", "lawton_park"), P("Happy", "LawtonPark")))
    lx = lexicon_for([f])
    phrases = [lx.constant_phrase(c) for c in ("LawtonPark", "lawtonPark", "lawton_park")]
    assert len({fold(p) for p in phrases}) == 3
    roundtrip(f, lx)


def test_constants_differing_only_in_case_fall_back() -> None:
    f = And((P("Happy", "alice"), P("Happy", "Alice")))
    lx = lexicon_for([f])
    assert fold(lx.constant_phrase("alice")) != fold(lx.constant_phrase("Alice"))
    roundtrip(f, lx)


def test_predicate_reading_like_another_falls_back() -> None:
    f = And((P("Happy", "tom"), P("IsHappy", "tom")))
    lx = lexicon_for([f])
    assert lx.predicate_pattern("Happy", 1) == "{0} is happy"
    assert lx.predicate_pattern("IsHappy", 1) == "{0} has property IsHappy"
    roundtrip(f, lx)


def test_atom_level_collision_falls_back() -> None:
    # With the constant spoken in lower case (an override), "Tom is resident of lawton park" could be
    # ResidentOf(tom, lawtonPark) or IsResidentOfLawtonPark(tom). (The natural phrase "Lawton Park" does not collide.)
    f = Iff(P("ResidentOf", "tom", "lawtonPark"), P("IsResidentOfLawtonPark", "tom"))
    assert lexicon_for([f]).predicate_pattern("IsResidentOfLawtonPark", 1) == "{0} is resident of lawton park"
    lx = lexicon_for([f], overrides={"lawtonPark": "lawton park"})
    formal = [lx.predicate_pattern("IsResidentOfLawtonPark", 1), lx.predicate_pattern("ResidentOf", 2)]
    assert "has property" in formal[0] or "bears relation" in formal[1]
    roundtrip(f, lx)


def test_equality_phrase_is_reserved() -> None:
    f = And((P("IdenticalTo", "tom", "bob"), Eq(Const("tom"), Const("bob"))))
    lx = lexicon_for([f])
    assert lx.predicate_pattern("IdenticalTo", 2) == "{0} bears relation IdenticalTo to {1}"
    roundtrip(f, lx)


def test_connective_words_stay_out_of_natural_phrases() -> None:
    f = And((P("BlackAndWhite", "tom"), P("Happy", "rockOrRoll"), P("Happy", "bothSides"), P("Happy", "ifTrue")))
    lx = lexicon_for([f])
    assert lx.predicate_pattern("BlackAndWhite", 1) == "{0} has property BlackAndWhite"
    assert lx.constant_phrase("rockOrRoll") == "rockOrRoll"
    assert lx.constant_phrase("bothSides") == "bothSides"
    roundtrip(f, lx)


def test_constant_named_like_a_variable_falls_back() -> None:
    f = Forall("bob", And((P("Happy", Var("bob")), P("Happy", "bob"), P("Happy", "x"))))
    lx = lexicon_for([f])
    assert lx.constant_phrase("bob") != "bob"
    assert lx.constant_phrase("x") != "x"
    roundtrip(f, lx)


def test_direct_construction_checks_ambiguity() -> None:
    with pytest.raises(LexiconError, match="same words"):
        Lexicon(((("Happy", 1), (0, "is", "happy")), (("Is", 2), (0, "is", 1))), (("happy", ("happy",)),))
    with pytest.raises(LexiconError, match="connective word"):
        Lexicon((), (("both", ("both",)),))
    with pytest.raises(LexiconError, match="end where the other goes on"):
        # "tom is happy" is an atom, and also the start of "tom is happy and rich"
        Lexicon(((("Happy", 1), (0, "is", "happy")), (("HappyAndRich", 1), (0, "is", "happy", "and", "rich"))), ())


def test_lexicon_is_immutable_hashable_and_deterministic() -> None:
    fs = [P("Likes", "alice", "bob"), P("Happy", "lawtonPark"), P("IsHappy", "c1")]
    a, b = lexicon_for(fs), lexicon_for(list(reversed(fs)))
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.style = "abstract"  # type: ignore[misc]


def test_overrides() -> None:
    f = P("LiveIn", "tom", "lawtonPark")
    lx = lexicon_for([f], overrides={("LiveIn", 2): "{0} has a home in {1}", "lawtonPark": "Lawton Park"})
    assert roundtrip(f, lx) == "Tom has a home in Lawton Park."
    with pytest.raises(LexiconError):
        lexicon_for([f], overrides={("LiveIn", 2): "{0} lives somewhere"})
    with pytest.raises(LexiconError):
        lexicon_for([f], style="fancy")  # type: ignore[arg-type]


def test_realize_refuses_what_cannot_read_back() -> None:
    lx = lexicon_for([P("Happy", "tom")])
    with pytest.raises(RealizationError, match="not in the lexicon"):
        realize(P("Sad", "tom"), lx)
    with pytest.raises(RealizationError, match="would not read back"):
        realize(Forall("tom", P("Happy", Var("tom"))), lx)
    with pytest.raises(RealizationError, match="would not read back"):
        realize(Forall("X", P("Happy", Var("X"))), lx)


def test_capitalisation_is_undone_by_fold() -> None:
    for word in ["alice", "Con1", "2008", "élan", "ßa", "ǆ"]:
        assert fold(capitalize(word)) == fold(word)


def test_eq_template_is_fixed() -> None:
    assert EQ_TEMPLATE == (0, "is", "identical", "to", 1)


# --------------------------------------------------------------------------- the reader


def test_reader_reports_position() -> None:
    lx = lexicon_for([P("Happy", "tom")])
    with pytest.raises(EnglishSyntaxError) as err:
        read("Both Tom is happy or Tom is happy.", lx)
    assert err.value.column == len("Both Tom is happy ")
    assert "'and'" in err.value.expected
    with pytest.raises(EnglishSyntaxError) as err:
        read("Tom is happy", lx)
    assert err.value.column == len("Tom is happy")
    with pytest.raises(EnglishSyntaxError):
        read("All of Tom is happy, and Tom is happy.", lx)  # "all of" needs three operands


VOCAB = (
    "it is not the case that holds logically true false both either all of at least one exactly if then and only "
    "but for there exists such , Tom tom happy x"
).split()


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(st.sampled_from(VOCAB), max_size=25).map(" ".join)))
def test_reader_raises_only_english_syntax_error(text: str) -> None:
    lx = lexicon_for([Forall("x", P("Happy", x)), P("Happy", "tom")])
    for attempt in (text, text + "."):
        try:
            f = read(attempt, lx)
        except EnglishSyntaxError:
            continue
        assert read(realize(f, lx), lx) == f


# --------------------------------------------------------------------------- the round trip


# One lexicon per problem, as the builders use it: a list of formulas shares one lexicon. About 2,000 examples
# in all (the formula strategy, not the realiser, is what costs time: a round trip takes about a millisecond).
problems = st.lists(formulas(max_depth=4), min_size=1, max_size=3)


@settings(max_examples=900, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems)
def test_roundtrip_natural(fs: list[Formula]) -> None:
    lx = lexicon_for(fs)
    for f in fs:
        roundtrip(f, lx)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems)
def test_roundtrip_abstract(fs: list[Formula]) -> None:
    lx = lexicon_for(fs, style="abstract")
    for f in fs:
        roundtrip(f, lx)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(max_depth=5), st.sampled_from(["natural", "abstract"]))
def test_roundtrip_deep(f: Formula, style: str) -> None:
    roundtrip(f, lexicon_for([f], style=style))  # type: ignore[arg-type]


# Random vocabularies built from overlapping words, so that natural phrases collide in every way we know of
# (one name the prefix of another, an atom the prefix of a longer atom, constants sharing words with
# templates, case-only differences, connective words inside names).
WORDS = ["is", "happy", "of", "park", "lawton", "likes", "has", "Has", "resident", "and", "true", "tom", "To", "in"]


def _camel(words: list[str], lower_first: bool) -> str:
    name = "".join(w[:1].upper() + w[1:] for w in words)
    return name[:1].lower() + name[1:] if lower_first else name


predicate_names = st.tuples(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(lambda ws: _camel(ws, False)),
    st.integers(min_value=0, max_value=3),
)
constant_names = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map(lambda ws: _camel(ws, True)),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map(lambda ws: _camel(ws, False)),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map("_".join),
)


@st.composite
def vocabulary_formulas(draw: st.DrawFn) -> Formula:
    preds = draw(st.lists(predicate_names, min_size=1, max_size=5, unique=True))
    consts = draw(st.lists(constant_names, min_size=1, max_size=4, unique=True))

    def terms(bound: tuple[str, ...]) -> st.SearchStrategy:
        options = [st.sampled_from(consts).map(Const)]
        if bound:
            options.append(st.sampled_from(bound).map(Var))
        return st.one_of(*options)

    def atoms(bound: tuple[str, ...]) -> st.SearchStrategy:
        atom = st.sampled_from(preds).flatmap(
            lambda p: st.tuples(*[terms(bound)] * p[1]).map(lambda args, p=p: Atom(p[0], tuple(args)))
        )
        return st.one_of(atom, st.builds(Eq, terms(bound), terms(bound)))

    def tree(bound: tuple[str, ...], depth: int) -> st.SearchStrategy:
        if depth <= 1:
            return atoms(bound)
        sub = tree(bound, depth - 1)
        return st.one_of(
            atoms(bound),
            sub.map(Not),
            st.lists(sub, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
            st.lists(sub, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
            st.tuples(st.sampled_from([Implies, Iff, Xor]), sub, sub).map(lambda t: t[0](t[1], t[2])),
            st.tuples(st.sampled_from([Forall, Exists]), tree((*bound, "x"), depth - 1)).map(lambda t: t[0]("x", t[1])),
        )

    return draw(st.lists(tree((), 3), min_size=1, max_size=3).map(lambda xs: And(tuple(xs)) if len(xs) > 1 else xs[0]))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocabulary_formulas())
def test_roundtrip_with_colliding_vocabularies(f: Formula) -> None:
    lx = lexicon_for([f])
    roundtrip(f, lx)
    # every atom over the lexicon's symbols reads back, not only those in f
    sig = signature(f)
    consts = sorted(sig.constants)
    for name, arity in sorted(sig.predicates):
        for i in range(len(consts)):
            args = tuple(Const(consts[(i + k) % len(consts)]) for k in range(arity))
            roundtrip(Atom(name, args), lx)


# --------------------------------------------------------------------------- the lexicon's check against brute force


def _atom_texts(templates: list, constants: list) -> list[tuple[tuple, tuple[str, ...]]]:
    """Every atom skeleton (slots filled with constants or one variable marker) with its folded words."""
    import itertools

    fillers = [(("c", name), words) for name, words in constants] + [(("v",), ("\x00var",))]
    out = []
    for key, template in templates:
        slots = sorted(i for i in template if isinstance(i, int))
        for combo in itertools.product(fillers, repeat=len(slots)):
            words: list[str] = []
            for item in template:
                words += [item] if isinstance(item, str) else list(combo[item][1])
            words[0] = fold(words[0])
            out.append(((key, tuple(c[0] for c in combo)), tuple(words)))
    return out


def _brute_force_ok(templates: list, constants: list) -> bool:
    from lgmt_tasks.logic.grammar_words import FOLLOWERS

    texts = _atom_texts(templates, constants)
    by_text: dict[tuple[str, ...], object] = {}
    for atom, words in texts:
        if by_text.setdefault(words, atom) != atom:
            return False
    for _, w1 in texts:
        for _, w2 in texts:
            if len(w2) > len(w1) and w2[: len(w1)] == w1 and w2[len(w1)] in FOLLOWERS:
                return False
    return True


TEMPLATE_WORDS = ["is", "happy", "of", "park", "and", ",", "Park", "big"]


@st.composite
def template_st(draw: st.DrawFn) -> tuple:
    """A valid template: optional leading words, then slots separated by at least one word."""
    words = st.lists(st.sampled_from(TEMPLATE_WORDS), min_size=1, max_size=2)
    arity = draw(st.integers(min_value=0, max_value=3))
    items: list = list(draw(words)) if arity == 0 or draw(st.booleans()) else []
    if items and items[0] in {",", "and"}:
        items[0] = "big"
    for slot in range(arity):
        items += [slot, *draw(words)] if slot < arity - 1 or draw(st.booleans()) else [slot]
    if len(items) == 1:
        items.append("is")
    return tuple(items)


templates_st = st.lists(template_st(), min_size=1, max_size=4)
phrases_st = st.lists(
    st.lists(
        st.sampled_from(["park", "Park", "big", "happy", "is", "of", "lawton", "tom", "and"]), min_size=1, max_size=3
    ),
    min_size=0,
    max_size=4,
    unique_by=tuple,
)


@settings(max_examples=400, deadline=None)
@given(templates_st, phrases_st)
def test_ambiguity_check_agrees_with_brute_force(templates: list, phrases: list) -> None:
    from lgmt_tasks.logic.ambiguity import find_conflicts
    from lgmt_tasks.logic.constant_trie import ConstantTrie

    keyed = [((f"P{i}", sum(isinstance(x, int) for x in t)), t) for i, t in enumerate(templates)]
    keyed.append((("=", 2), EQ_TEMPLATE))
    constants = [(f"c{i}", tuple(words)) for i, words in enumerate(phrases)]
    expected = _brute_force_ok(keyed, constants)
    assert (not find_conflicts(keyed, ConstantTrie.build(constants))) == expected


# --------------------------------------------------------------------------- real benchmark formulas

DATA = Path(__file__).parents[2].parent / "shared" / "data"


@pytest.mark.parametrize("name", ["folio/folio_v2_validation.jsonl", "proverqa/proverqa_dev_hard.jsonl"])
def test_roundtrip_of_benchmark_problems(name: str) -> None:
    """One lexicon per problem, as the builders use it; every formula that parses reads back exactly."""
    from lgmt_tasks.logic.parse import FormulaSyntaxError, parse

    if not DATA.is_dir():
        pytest.skip(f"source data folder {DATA} is absent")
    checked = 0
    with (DATA / name).open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            fs = []
            for text in [*record["premises_fol"], record["conclusion_fol"]]:
                try:
                    fs.append(parse(text))
                except FormulaSyntaxError:
                    continue  # malformed in the source: listed by test_source_formulas
            lx = lexicon_for(fs)
            for f in fs:
                assert read(realize(f, lx), lx) == f, (record["id"], realize(f, lx))
                checked += 1
    assert checked > 1000
