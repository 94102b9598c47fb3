"""Unit and fuzz tests of `lgmt_tasks.logic.parse`: each notation quirk of the sources, errors, and robustness."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.parse import MAX_DEPTH, FormulaSyntaxError, is_identifier, is_variable_identifier, parse
from lgmt_tasks.logic.printer import show, show_ascii
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Iff,
    Implies,
    Not,
    Or,
    Var,
    Xor,
    depth,
    free_vars,
)

x, y, z = Var("x"), Var("y"), Var("z")


def P(*args):  # noqa: N802 - reads like the formula
    return Atom("P", tuple(args))


def Q(*args):  # noqa: N802
    return Atom("Q", tuple(args))


def R(*args):  # noqa: N802
    return Atom("R", tuple(args))


a, b = Const("a"), Const("b")
A, B, C, D = Atom("A"), Atom("B"), Atom("C"), Atom("D")


# --------------------------------------------------------------------------- FOLIO notation


@pytest.mark.parametrize(
    "text",
    [
        "∀x (P(x) → Q(x))",
        "∀x(P(x) → Q(x))",
        "∀ x (P(x) → Q(x))",
        "∀x((P(x) → Q(x)))",
        "  ∀x  (P (x)→  Q (x)) ",  # FOLIO v0: "∀x  (Fly (x)→  HaveWings (x)) "
        "forall x. (P(x) -> Q(x))",
        "forall x (P(x) -> Q(x))",
        "forall x.(P(x) -> Q(x))",
        "∀x.(P(x) → Q(x))",
    ],
)
def test_quantifier_spellings(text):
    assert parse(text) == Forall("x", Implies(P(x), Q(x)))


def test_nested_prefix():
    assert parse("∀x ∀y (Fights(x, y) → ¬Fights(y, x))") == Forall(
        "x", Forall("y", Implies(Atom("Fights", (x, y)), Not(Atom("Fights", (y, x)))))
    )
    assert parse("∀x ∃y (P(x, y))") == parse("∀x(∃y(P(x, y)))")


def test_unparenthesised_scope_is_widest():
    # FOLIO v0 train 1013: "∀x Weddings(x) → GettingMarried(x)".
    assert parse("∀x Weddings(x) → GettingMarried(x)") == Forall(
        "x", Implies(Atom("Weddings", (x,)), Atom("GettingMarried", (x,)))
    )
    # FOLIO v2 621: "(∃y Conductor(y) ∧ Lead(y, x))" inside a bracket: the scope stops at the bracket.
    assert parse("∀x (Orchestra(x) → (∃y Conductor(y) ∧ Lead(y, x)))") == Forall(
        "x",
        Implies(
            Atom("Orchestra", (x,)),
            Exists("y", And((Atom("Conductor", (y,)), Atom("Lead", (y, x))))),
        ),
    )
    assert parse("A ∧ ∀x P(x) ∨ Q(x)") == And((A, Forall("x", Or((P(x), Q(x))))))
    assert parse("∀x ¬P(x) ∧ Q(x)") == Forall("x", And((Not(P(x)), Q(x))))


def test_parenthesised_quantifier_body_is_one_operand():
    # The documented rule: a parenthesised body (or a prefix ending in one) scopes over that group only.
    assert parse("∀x (P(x)) → Q(a)") == Implies(Forall("x", P(x)), Q(a))
    assert parse("∀x (P(x) → Q(x)) ∧ R(a)") == And((Forall("x", Implies(P(x), Q(x))), R(a)))
    # FOLIO v2 786: the existential prefix is the antecedent.
    assert parse("∀x (∃y ∃z (P(y) ∧ P(z) ∧ ¬(y=z)) → ¬Q(x))") == Forall(
        "x",
        Implies(Exists("y", Exists("z", And((P(y), P(z), Not(Eq(y, z)))))), Not(Q(x))),
    )
    # The variable is then free in what follows (FOLIO v0 train 506 is reported for exactly this).
    f = parse("∀x ∃y (P(x, y)) → Q(x, y)")
    assert f == Implies(Forall("x", Exists("y", P(x, y))), Q(x, y))
    assert free_vars(f) == {"x", "y"}


def test_negated_quantifier():
    # FOLIO v2 1244: "¬∃x (…) ∧ ¬WorkIn(james, lab)".
    assert parse("¬∃x (P(x) ∧ Q(x)) ∧ ¬R(a)") == And((Not(Exists("x", And((P(x), Q(x))))), Not(R(a))))
    assert parse("¬∃z (P(z))") == Not(Exists("z", P(z)))
    assert parse("¬∀x P(x) ∧ Q(x)") == Not(Forall("x", And((P(x), Q(x)))))


def test_precedence():
    assert parse("A ∧ B → C ∧ D") == Implies(And((A, B)), And((C, D)))
    assert parse("A ⊕ B → C ⊕ D") == Implies(Xor(A, B), Xor(C, D))
    assert parse("A ∧ B ∨ C") == Or((And((A, B)), C))
    assert parse("A ∨ B ∧ C") == Or((A, And((B, C))))
    assert parse("A ∨ B ⊕ C") == Xor(Or((A, B)), C)
    assert parse("A ⊕ B ∨ C") == Xor(A, Or((B, C)))
    assert parse("A ∧ B ⊕ C") == Xor(And((A, B)), C)
    assert parse("A → B ↔ C → D") == Iff(Implies(A, B), Implies(C, D))
    assert parse("¬A ∧ B") == And((Not(A), B))
    assert parse("¬(A ∧ B)") == Not(And((A, B)))
    # FOLIO v0 validation 19.
    assert parse("¬(Turtle(rock) ∧ Squirrel(rock)) → Cute(rock) ⊕ Skittish(rock)") == Implies(
        Not(And((Atom("Turtle", (Const("rock"),)), Atom("Squirrel", (Const("rock"),))))),
        Xor(Atom("Cute", (Const("rock"),)), Atom("Skittish", (Const("rock"),))),
    )


def test_associativity():
    assert parse("A → B → C") == Implies(A, Implies(B, C))
    assert parse("A ↔ B ↔ C") == Iff(A, Iff(B, C))
    assert parse("A ⊕ B ⊕ C ⊕ D") == Xor(Xor(Xor(A, B), C), D)


def test_n_ary_flattening_keeps_brackets():
    assert parse("A ∧ B ∧ C") == And((A, B, C))
    assert parse("A ∧ (B ∧ C)") == And((A, And((B, C))))
    assert parse("(A ∧ B) ∧ C") == And((And((A, B)), C))
    assert parse("A ∨ B ∨ C ∨ D") == Or((A, B, C, D))
    assert parse("((A))") == A


def test_variant_connectives():
    # `⟷` (FOLIO v0 validation 87, v2 688) and `^` (FOLIO v0 train 889).
    assert parse("A ⟷ B") == Iff(A, B)
    assert parse("¬(GraduateStudent(joe) ^ Student(joe))") == Not(
        And((Atom("GraduateStudent", (Const("joe"),)), Atom("Student", (Const("joe"),))))
    )


def test_ascii_connectives():
    assert parse("-A & ~B | C -> D <-> A <~> B") == Iff(Implies(Or((And((Not(A), Not(B))), C)), D), Xor(A, B))
    assert parse("A->B") == Implies(A, B)
    assert parse("A<->B") == Iff(A, B)
    assert parse("--A") == Not(Not(A))
    assert parse("exists y. P(y) & Q(y)") == Exists("y", And((P(y), Q(y))))
    assert parse("forall x.P(x)") == Forall("x", P(x))
    assert parse("$true -> $false") == Implies(TRUE, FALSE)


def test_words_are_not_operators():
    with pytest.raises(FormulaSyntaxError):
        parse("A and B")
    assert parse("not") == Atom("not")


def test_truth_constants():
    assert parse("⊤") == TRUE
    assert parse("⊥") == FALSE
    assert parse("¬⊤ ∨ ⊥") == Or((Not(TRUE), FALSE))


def test_equality():
    # FOLIO v2: "x=y" and "¬(x=y)" without spaces.
    assert parse("∃x ∃y (P(x) ∧ P(y) ∧ ¬(x=y))") == Exists("x", Exists("y", And((P(x), P(y), Not(Eq(x, y))))))
    assert parse("a = b") == Eq(a, b)
    assert parse("x=bristol") == Eq(x, Const("bristol"))
    assert parse("¬(a=b) ∧ a=a") == And((Not(Eq(a, b)), Eq(a, a)))


@pytest.mark.parametrize(
    "name",
    [
        "2008SummerOlympics",
        "42point3billion",
        "1984",
        "dani_Shapiro",
        "mr.smith",
        "y42.3billion",
        "anU.SGovernmentOfficial",
        "c++",
        "a+",
        "l-2021",
        "male-and-femaleMating",
        "świątek",
        "kO",
        "Carol",
        "Brecken",
    ],
)
def test_constant_names(name):
    assert parse(f"P({name}, b)") == Atom("P", (Const(name), b))
    assert is_identifier(name)


@pytest.mark.parametrize(
    "name",
    [
        "Top10",
        "F1Visa",
        "Anti-abortion",
        "Non-BreastCancer",
        "GrowthCompanies’Stocks",
        "LostToIgaŚwiątek",
        "has_experienced_heartbreak",
        "PhD_holder",
        "_responder_to_commands",
        "SelfConfident",
    ],
)
def test_predicate_names(name):
    assert parse(f"¬{name}(a)") == Not(Atom(name, (a,)))


def test_space_before_atom_parenthesis():
    # FOLIO v0: "Eel (seaEel) ⊕ Plant (seaEel) → Eel (seaEel) ∨ Animal (seaEel)".
    sea = (Const("seaEel"),)
    assert parse(" Eel (seaEel) ⊕ Plant (seaEel) → Eel (seaEel) ∨ Animal (seaEel) ") == Implies(
        Xor(Atom("Eel", sea), Atom("Plant", sea)), Or((Atom("Eel", sea), Atom("Animal", sea)))
    )


def test_joiners_split_at_connectives():
    assert parse("Anti-abortion(a)->B") == Implies(Atom("Anti-abortion", (a,)), B)
    assert parse("-Anti-abortion(a)") == Not(Atom("Anti-abortion", (a,)))
    assert not is_identifier("a-")
    assert not is_identifier("a.")
    assert not is_identifier("-a")
    assert not is_identifier("")
    assert is_variable_identifier("x1")
    assert not is_variable_identifier("x.y")
    assert not is_variable_identifier("c++")


def test_proverqa_and_logicnli():
    assert parse("has_experienced_heartbreak(Brecken) ⊕ has_never_experienced_heartbreak(Brecken)") == Xor(
        Atom("has_experienced_heartbreak", (Const("Brecken"),)),
        Atom("has_never_experienced_heartbreak", (Const("Brecken"),)),
    )
    assert parse("(∃x (¬Civil(x) ∨ Southern(x))) → (Soft(paul) ∧ ¬Poised(broderick))") == Implies(
        Exists("x", Or((Not(Atom("Civil", (x,))), Atom("Southern", (x,))))),
        And((Atom("Soft", (Const("paul"),)), Not(Atom("Poised", (Const("broderick"),))))),
    )


def test_name_resolution():
    # Bound -> Var; unbound single letter u-z -> free Var; anything else -> Const.
    assert parse("P(w, v, u, t, alice)") == Atom("P", (Var("w"), Var("v"), Var("u"), Const("t"), Const("alice")))
    assert parse("∀alice (P(alice))") == Forall("alice", Atom("P", (Var("alice"),)))
    assert parse("P(X)") == Atom("P", (Const("X"),))
    # The scope ends with the bracket: a later use of the name is a constant again.
    assert parse("(∀alice (P(alice))) ∧ P(alice)") == And(
        (Forall("alice", Atom("P", (Var("alice"),))), Atom("P", (Const("alice"),)))
    )
    # Formula position without "(": a propositional atom, even for a bound name.
    assert parse("∀x (x)") == Forall("x", Atom("x"))
    # Duplicated quantifier (FOLIO v0 train 136): legal, inner binding wins.
    assert parse("∃x ∃x (P(x))") == Exists("x", Exists("x", P(x)))


def test_keywords_only_before_a_variable():
    assert parse("forall") == Atom("forall")
    assert parse("exists(a) & forall") == And((Atom("exists", (a,)), Atom("forall")))
    assert parse("P(forall, exists)") == Atom("P", (Const("forall"), Const("exists")))


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("", 0, "a formula"),
        ("   ", 3, "a formula"),
        ("(A ∧ B", 6, "')'"),
        ("A ∧ B)", 5, "a binary connective or end of input"),
        ("A ∧", 3, "a formula"),
        ("P(a", 3, "',' or ')'"),
        ("P(a b)", 4, "',' or ')'"),  # FOLIO v0 train 524: "captain america"
        ("P()", 2, "a term"),
        ("P(a,)", 4, "a term"),
        ("∀ (P(x))", 2, "a variable"),
        ("∀x", 2, "a formula"),
        ("A @ B", 2, "a binary connective or end of input"),
        ("P(a) Q(a)", 5, "a binary connective or end of input"),  # FOLIO v0 train 25
        ("(P(a), Q(a))", 5, "a binary connective or ')'"),  # FOLIO v0 validation 87
        ("P(a).", 4, "a binary connective or end of input"),  # FOLIO v0 train 687
        ("a = ", 4, "a term"),
        ("a = b = c", 6, "a binary connective or end of input"),
        ("$maybe", 0, "a formula"),
    ],
)
def test_error_column_and_expected(text, column, expected):
    with pytest.raises(FormulaSyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.text, err.column, err.expected) == (text, column, expected)


def test_error_message_has_caret_under_column():
    with pytest.raises(FormulaSyntaxError) as info:
        parse("∀x (P(x) ∧\tQ(x)")
    lines = str(info.value).splitlines()
    assert lines[0] == "expected ')' at column 15, found end of input"
    assert lines[1] == "  ∀x (P(x) ∧ Q(x)"  # the tab is shown as one space, so the caret stays aligned
    assert lines[2].index("^") == 2 + 15


def test_error_is_a_value_error_and_pickles():
    with pytest.raises(ValueError):
        parse("(")
    try:
        parse("P(a")
    except FormulaSyntaxError as err:
        copy = pickle.loads(pickle.dumps(err))
        assert (copy.text, copy.column, copy.expected, str(copy)) == (err.text, err.column, err.expected, str(err))


def test_non_string_is_a_type_error():
    with pytest.raises(TypeError):
        parse(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "A" + ")" * 10_000,
        "¬" * 10_000 + "A",
        "∀x " * 10_000 + "P(x)",
        "∀x (" * 10_000 + "P(x)" + ")" * 10_000,
        "A → " * 10_000 + "A",
        "A ⊕ " * 10_000 + "A",
        "A ↔ " * 10_000 + "A",
        "(" * 10_000,
    ],
)
def test_deep_nesting_is_a_syntax_error(text):
    with pytest.raises(FormulaSyntaxError) as info:
        parse(text)
    assert "nested at most" in info.value.expected or info.value.expected == "')'"


@pytest.mark.parametrize(
    "build",
    [
        lambda f: Not(f),
        lambda f: Forall("x", f),
        lambda f: Implies(A, f),
        lambda f: And((f, B)),
        lambda f: Not(And((f, B))),
    ],
)
def test_printed_formulas_up_to_the_depth_limit_parse(build):
    tall = P(x)
    while depth(build(tall)) <= MAX_DEPTH:
        tall = build(tall)
    assert depth(tall) >= MAX_DEPTH - 1
    assert parse(show(tall)) == tall
    assert parse(show_ascii(tall)) == tall
    with pytest.raises(FormulaSyntaxError):
        parse(show(build(tall)))


def test_depth_limit_admits_moderate_nesting():
    depth = MAX_DEPTH // 2
    assert parse("(" * depth + "A" + ")" * depth) == A
    assert parse("A → " * (depth - 1) + "A") is not None
    assert parse("A ∧ " * 10_000 + "A") == And((A,) * 10_001)  # flat: no depth at all


# --------------------------------------------------------------------------- fuzz
# 10,000 Hypothesis examples in all (about 15 s), plus 20,000 seeded mutations of real formulas (about 1 s).

LOGIC_CHARS = "∀∃¬∧∨→↔⊕⟷^⊤⊥()=,.~&|-<>$ \txyzPQab1_’+"
TOKENS = [*LOGIC_CHARS, "->", "<->", "<~>", "forall ", "exists ", "$true", "$false", "P(x)", "Q(a, b)", "∀x ", "∃y("]
SEEDS = [
    "∀x (Rabbit(x) → Cute(x))",
    "¬(Turtle(rock) ∧ Squirrel(rock)) → Cute(rock) ⊕ Skittish(rock)",
    "∀x ∀y (GoodGuy(x) ∧ Fights(x, y) ⟷ BadGuy(y) ∧ Fights(y, x))",
    "∃x ∃y (Animal(x) ∧ Animal(y) ∧ ¬(x=y))",
    "∀x Weddings(x) → GettingMarried(x)",
    "∀x (Orchestra(x) → (∃y Conductor(y) ∧ Lead(y, x)))",
    " Eel (seaEel) ⊕ Plant (seaEel) → Eel (seaEel) ∨ Animal (seaEel) ",
    "¬∃x (PartTimeJob(x) ∧ Have(james, x)) ∧ ¬WorkIn(james, lab)",
    "has_experienced_heartbreak(Brecken) ⊕ has_never_experienced_heartbreak(Brecken)",
    "(∃x (¬Civil(x) ∨ Southern(x))) → (Soft(paul) ∧ ¬Poised(broderick))",
    "forall x. (P(x) -> -Q(x) | R(x, c++) <-> $true <~> mr.smith = l-2021)",
    "(∀x (P(x))) ∧ ¬∀y (Q(y)) ∧ ⊤ ∧ ⊥",
]


def assert_only_syntax_errors(text: str) -> None:
    try:
        formula = parse(text)
    except FormulaSyntaxError as err:
        assert 0 <= err.column <= len(text)
        assert err.expected
        str(err)
        return
    # Whatever parses must print and read back to itself (a free variable named like a constant cannot print).
    try:
        printed = show(formula)
    except ValueError:
        return
    assert parse(printed) == formula


@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=LOGIC_CHARS, max_size=50))
def test_fuzz_logic_characters(text):
    assert_only_syntax_errors(text)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
def test_fuzz_arbitrary_text(text):
    assert_only_syntax_errors(text)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))
def test_fuzz_token_soup(text):
    assert_only_syntax_errors(text)


def test_fuzz_seeded_mutations_of_real_formulas():
    rng = random.Random(20240917)
    for _ in range(20_000):
        text = rng.choice(SEEDS)
        for _ in range(rng.randint(1, 4)):
            i = rng.randint(0, len(text))
            j = rng.randint(i, min(len(text), i + 4))
            edit = rng.random()
            if edit < 0.4:
                text = text[:i] + rng.choice(TOKENS) + text[j:]
            elif edit < 0.7:
                text = text[:i] + text[j:]
            else:
                text = text[:i] + text[i:j] * 2 + text[j:]
        assert_only_syntax_errors(text)
