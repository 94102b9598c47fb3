"""Issue #36, third round: articles and names the realiser dropped or mis-cased (reviewed MR-E/MR-P/MR-S/MR-C sample).

A common noun the English writes only as a plural subject ("Grapes are food") is "the grape"; a sentence-initial
"A Lamborghini SUV" keeps its article; an acronym the English spells out with "the" takes it ("plays in the NFL");
`HasLogo` from "with the Bloomberg logo" is "x has the y logo"; a renamed modifier keeps its noun phrase's article
("with a Con1 logo"); a misspelt name at a sentence start stays capitalised in a splice ("Phoneix's music").
Every lexicon reads back exactly.
"""

from __future__ import annotations

from lgmt_tasks.lgmt.english import (
    _proper_words,
    case_lexicon,
    constant_spellings,
    learned_templates,
    splice_clause,
    substitute_constant,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.sources.case import Case


def case(pairs: list[tuple[str, str]], conclusion: tuple[str, str]) -> Case:
    return Case(
        premises_fol=tuple(parse(f) for _, f in pairs),
        conclusion_fol=parse(conclusion[1]),
        premises=tuple(t for t, _ in pairs),
        conclusion=conclusion[0],
    )


def said(c: Case, fol: str) -> str:
    lx = case_lexicon(c)
    f = parse(fol)
    text = realize(f, lx)
    assert read(text, lx) == f
    return text


GRAPES = case(
    [("All fruits are edible.", "∀x (Fruit(x) → Edible(x))"), ("Grapes are not lemons.", "¬Lemon(grape)")],
    ("Grapes are food.", "Food(grape)"),
)
LAMBORGHINI = case(
    [("A Lamborghini SUV is not a Ferrari.", "¬Ferrari(lamborghiniSUV)"), ("A Kelly bag is a bag.", "Bag(kelly)")],
    ("A Lamborghini SUV is made in Italy.", "MadeIn(lamborghiniSUV, italy)"),
)
NFL = case(
    [
        ("If a club is in NFL, the person plays in NFL.", "∀x ∀y (InNFL(y) ∧ Club(y) → PlayInNFL(x))"),
        ("Minnesota Vikings were in the National Football League.", "InNFL(minnesotaVikings)"),
    ],
    ("Minnesota Vikings is a club.", "Club(minnesotaVikings)"),
)
LOGO = case(
    [("All buildings with the Bloomberg logo are tall.", "∀x (HasLogo(x, bloomberg) → Tall(x))")],
    ("Tower B is a building with a Bloomberg logo.", "Building(towerB) ∧ HasLogo(towerB, bloomberg)"),
)
PHONEIX = case(
    [("Phoenix is a band from France.", "Band(phoenix) ∧ From(phoenix, france)")],
    ("Phoneix's music is classified under the pop rock genre.", "PopRock(phoenix)"),
)


def test_a_common_noun_written_only_as_a_plural_subject_is_the_singular_with_its_article() -> None:
    assert constant_spellings(GRAPES)["grape"] == ("the", "grape")
    assert said(GRAPES, "Edible(grape) ∧ Lemon(grape)") == "Both the grape is edible and the grape is a lemon."


def test_a_proper_name_written_only_at_sentence_starts_is_not_given_an_article() -> None:
    c = case([("Tom is tall.", "Tall(tom)")], ("Tom is kind.", "Kind(tom)"))
    assert constant_spellings(c).get("tom", ("Tom",)) == ("Tom",)


def test_a_sentence_initial_article_of_a_capitalised_name_is_kept() -> None:
    assert constant_spellings(LAMBORGHINI)["lamborghiniSUV"] == ("a", "Lamborghini", "SUV")
    assert said(LAMBORGHINI, "Ferrari(lamborghiniSUV)") == "A Lamborghini SUV is a Ferrari."
    assert constant_spellings(LAMBORGHINI)["kelly"] == ("Kelly",)  # "A Kelly bag": the longer phrase's article


def test_an_acronym_the_english_spells_out_with_the_takes_the() -> None:
    assert said(NFL, "PlayInNFL(minnesotaVikings)") == "Minnesota Vikings plays in the NFL."


def test_an_acronym_never_spelled_out_keeps_its_words() -> None:
    c = case(
        [("If x lives in NYC, x plays in NYC.", "∀x (LiveInNYC(x) → PlayInNYC(x))")], ("Tom is kind.", "Kind(tom)")
    )
    assert "the" not in learned_templates(c).get(("PlayInNYC", 1), ())


def test_has_noun_learns_the_noun_after_its_object() -> None:
    assert learned_templates(LOGO)[("HasLogo", 2)] == (0, "has", "the", 1, "logo")
    assert said(LOGO, "HasLogo(towerB, bloomberg)") == "Tower B has the Bloomberg logo."


def test_a_renamed_modifier_keeps_the_article_of_its_noun_phrase() -> None:
    assert substitute_constant(LOGO.conclusion, "bloomberg", "Con1") == "Tower B is a building with a Con1 logo."
    assert substitute_constant("Tom speaks a language family.", "languageFamily", "Con1") == "Tom speaks Con1."


def test_a_misspelt_name_at_a_sentence_start_stays_capitalised_in_a_splice() -> None:
    proper = _proper_words(PHONEIX)
    assert splice_clause(PHONEIX.conclusion, proper).startswith("Phoneix's music")
    plain = case([("Army units march.", "∀x (Unit(x) → March(x))")], ("Mary is kind.", "Kind(mary)"))
    assert splice_clause(plain.premises[0], _proper_words(plain)).startswith("army")


def test_a_name_whose_inner_word_the_english_inflects_takes_the_englishs_capitals() -> None:
    c = case(
        [
            (
                "Cutmen appear in boxing matches or mixed martial arts matches bout.",
                "∀x (Cutman(x) → AppearIn(x, boxingMatch) ∨ AppearIn(x, mixedMartialArtsMatchBout))",
            )
        ],
        ("Jack is a cutman.", "Cutman(jack)"),
    )
    # written only with a plural inside, in lower case: a common noun, whose singular needs an article
    assert constant_spellings(c)["mixedMartialArtsMatchBout"] == ("the", "mixed", "martial", "arts", "match", "bout")
    assert said(c, "AppearIn(jack, mixedMartialArtsMatchBout)") == "Jack appears in the mixed martial arts match bout."


def test_a_common_noun_written_only_in_the_plural_mid_sentence_takes_the_englishs_article() -> None:
    c = case(
        [
            ("Everybody lives in a big metropolitan cities.", "∀x LiveIn(x, bigMetropolitanCity)"),
            ("Tom does not live in big metropolitan cities.", "¬LiveIn(tom, bigMetropolitanCity)"),
        ],
        ("Tom is kind.", "Kind(tom)"),
    )
    assert constant_spellings(c)["bigMetropolitanCity"] == ("a", "big", "metropolitan", "city")
    assert said(c, "LiveIn(tom, bigMetropolitanCity)") == "Tom lives in a big metropolitan city."


def test_a_plural_used_everywhere_keeps_its_plural() -> None:
    c = case([("Tom is mean to animals.", "MeanTo(tom, animal)")], ("Tom likes animals.", "Like(tom, animal)"))
    assert constant_spellings(c)["animal"] == ("animals",)


def test_a_title_with_its_number_stays_capitalised_in_a_splice() -> None:
    c = case(
        [("Catullus 4 is a poem.", "Poem(catullus4)")],
        ("Callus 4 is written in iambic trimeter.", "WrittenIn(catullus4, iambicTrimeter)"),
    )
    assert splice_clause(c.conclusion, _proper_words(c)).startswith("Callus 4 is")
