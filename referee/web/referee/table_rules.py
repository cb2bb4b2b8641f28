"""This table's rulings: the questions a table argues about most, each answered for one family, its variants
and its house rules in a sentence or two, from the engine's rule facts (``Rules``, ``Family``) rather than from
text written again. An answer that rests on what the family's document leaves to the table (``Family.silent``)
says so and names the house rule that changes it; one that a house rule of this table changed says that.

The disputes, as rules sites, rule books and other score keepers' issue trackers report them: laying off in the
turn you go down, going out without a discard, who gets a discard several players want, what a buy costs, how
many buys and until when, melds after going down, aces, wild cards in a meld, taking a joker back, twos wild,
a joker left in hand, two runs of one suit, a set repeating a suit, a stock that runs out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...cards import Card
from ...families import BUY_EXTRA_CARDS, Rules
from ...i18n import N_
from ..i18n import gettext, ngettext
from ..picker import cards_text
from ..rules.routes import rule_title, rule_url
from ..words import in_a_list, option_label, option_value


@dataclass
class Ruling:
    """One question and its answer for this table."""

    key: str  # an id of the question (the page's anchor)
    question: str
    answer: str
    rule: str  # the rule anchor the answer rests on
    options: tuple[str, ...] = ()  # the house rules that change the answer
    facts: tuple[str, ...] = ()  # other facts of the family it rests on (``Family.silent`` names them too)
    house: str = ""  # "" | "changed" (a house rule of this table) | "silent" (the document leaves it open)
    open_options: tuple[str, ...] = ()  # the house rules among ``options`` that the document leaves open
    links: dict[str, str] = field(default_factory=dict)


def _yes_no(flag: bool, yes: str, no: str) -> str:
    return gettext(yes) if flag else gettext(no)


def table_rulings(rules: Rules) -> list[Ruling]:
    """Every question answered for ``rules``, in the order a table meets them in a hand."""
    fam, house = rules.family, rules.house
    out: list[Ruling] = []

    def add(key: str, question: str, answer: str, rule: str, options: tuple[str, ...] = (),
            facts: tuple[str, ...] = ()) -> None:
        changed = tuple(o for o in options if rules.options.get(o) != fam.defaults.get(o))
        silent = any(name in fam.silent for name in options + facts)
        out.append(Ruling(key, gettext(question), answer, rule, changed or options, facts,
                          "changed" if changed else "silent" if silent else "",
                          tuple(o for o in options if o in fam.silent)))

    # buying
    if house.buy_limit == 0:
        limit = gettext("Nobody buys a discard at this table.")
    else:
        limit = (gettext("There is no limit on buys.") if house.buy_limit is None else
                 ngettext("Each player may buy once in a hand.", "Each player may buy up to %(num)s times in a hand.",
                          house.buy_limit))
        limit += " " + {"declined": gettext("A buy is called when the player in turn does not take the top "
                                            "discard, before the next card is drawn."),
                        "out_of_turn": gettext("A buy is called out of turn, before the next player takes the "
                                               "discard."),
                        "stock_drawn": gettext("A buy is called when the player in turn draws from the stock "
                                               "instead of taking the discard.")}[fam.buy_when]
    add("buys", N_("How many buys may a player make, and until when?"), limit, "rule-buy-limit", ("buy_limit",))
    if house.buy_limit != 0:
        cost = ngettext("The buyer takes the discard and %(num)s more card from the stock as a penalty.",
                        "The buyer takes the discard and %(num)s more cards from the stock as a penalty.",
                        BUY_EXTRA_CARDS)
        if house.may_i:
            cost += " " + gettext("They ask \"May I?\" first.")
        add("buy-cost", N_("How many penalty cards does a buy cost?"), cost, "rule-buying", ("may_i",))
        who = {"nearest": gettext("The player in turn may take it first. If they leave it, the player who asks "
                                  "and sits nearest to them, clockwise, buys it."),
               "turn_then_nearest": gettext("The player in turn always has the first option; after them, the "
                                            "player who asks and comes next in turn order."),
               "turn_free_then_nearest": gettext("The player in turn may take it first, without a penalty card; "
                                                 "otherwise the player who asks and comes next in turn order "
                                                 "buys it.")}[fam.buy_priority]
        add("who-buys", N_("Several players want the discard: who gets it?"), who, "rule-buying",
            facts=("buy_priority",))
    # going down and laying off
    extra = _yes_no(house.contract_extra_cards,
                    N_("Your contract melds may hold more cards than the contract asks."),
                    N_("Your contract melds hold exactly the cards the contract asks; lay the others off later."))
    add("after-down", N_("May I put down more melds after going down?"),
        gettext("No: you go down once in a hand, with the contract's melds; after that you only lay off.") + " " +
        extra, "rule-going-down", ("contract_extra_cards",))
    add("lay-off-same-turn", N_("May I lay off in the turn I go down?"),
        _yes_no(house.lay_off_same_turn,
                N_("Yes: once your contract is down, you may lay off in the same turn."),
                N_("No: you lay off from your next turn on, not in the turn you go down.")),
        "rule-lay-off", ("lay_off_same_turn",))
    finals = [h.number for h in rules.hands if h.contract.no_discard]
    if finals:
        going_out = gettext("You go out by discarding your last card, except in hand %(hand)s: it has no final "
                            "discard, and you go out by putting your whole hand on the table.",
                            hand=in_a_list([str(n) for n in finals]))
    else:
        going_out = gettext("You go out by discarding your last card, in every hand.")
    add("going-out", N_("Do I need a discard to go out?"), going_out, "rule-final-hand")
    # melds
    aces = {"either": N_("An ace plays low (A-2-3) or high (Q-K-A) in a run, never around the corner (K-A-2)."),
            "low": N_("An ace plays low only (A-2-3), never high (Q-K-A) or around the corner (K-A-2)."),
            "high": N_("An ace plays high only (Q-K-A), never low (A-2-3) or around the corner (K-A-2).")}
    add("aces", N_("Aces high, low, or around the corner?"), gettext(aces[house.ace]), "rule-aces", ("ace",))
    wild = [ngettext("A set needs at least %(num)s natural card.", "A set needs at least %(num)s natural cards.",
                     house.set_min_naturals)]
    wild.append(gettext("A run may hold any number of wild cards.") if house.run_max_wilds_per_4 is None else
                ngettext("Any four cards in a row of a run hold at most %(num)s wild card.",
                         "Any four cards in a row of a run hold at most %(num)s wild cards.",
                         house.run_max_wilds_per_4))
    if house.second_wild_needs_fixed_position:
        wild.append(gettext("A second wild card goes only where the natural cards fix its place."))
    if house.wilds_at_most_naturals:
        wild.append(gettext("A meld put down for the contract holds no more wild cards than natural cards; laying "
                            "off has no such limit."))
    wild.append(gettext("A meld is never wild cards alone."))
    add("wilds-in-a-meld", N_("How many wild cards may a meld hold?"), " ".join(wild), "rule-set-naturals",
        ("set_min_naturals", "run_max_wilds_per_4", "second_wild_needs_fixed_position", "wilds_at_most_naturals"))
    add("twos", N_("Are twos wild?"),
        _yes_no("2" in house.wild_ranks, N_("Yes: the wild cards are %(wilds)s."),
                N_("No: the wild cards are %(wilds)s.")) % {
            "wilds": option_value("wild_ranks", list(house.wild_ranks), fam)},
        "rule-wilds", ("wild_ranks",))
    add("joker-back", N_("May I take a joker back from the table?"),
        _yes_no(house.joker_swap,
                N_("Yes: on your turn, give the natural card a joker on the table stands for, and use the joker "
                   "at once."),
                N_("No: a joker on the table stays where it is.")),
        "rule-joker-swap", ("joker_swap",))
    pair = {"low": cards_text("5H 6H 7H 8H"), "high": cards_text("9H 10H JH QH")}
    add("runs-of-a-suit", N_("May two runs of one suit touch or continue each other?"),
        gettext("No: where one would continue the other (%(low)s and %(high)s), they are one run, not two.", **pair)
        if house.runs_of_a_suit_apart else
        gettext("Yes: they are two runs, even where one would continue the other (%(low)s and %(high)s).", **pair),
        "rule-run", ("runs_of_a_suit_apart",), facts=("runs_of_a_suit",))
    add("set-suits", N_("May a set repeat a suit?"),
        ngettext("Yes: a set is cards of one rank in any suits; with %(num)s deck the same card can appear only "
                 "once.",
                 "Yes: a set is cards of one rank in any suits, and with %(num)s decks the same card may appear up "
                 "to %(num)s times.", rules.decks),
        "rule-set", ("decks",))
    # the end of a hand
    cost = ngettext("%(num)s penalty point.", "%(num)s penalty points.", rules.points(Card.parse("JK")))
    others = [r for r in house.wild_ranks if r != "JK"]
    if others:
        cost += " " + gettext("A wild %(rank)s left in hand costs %(points)s.", rank=option_value(
            "wild_ranks", others, fam), points=rules.points(Card.parse(others[0] + "S")))
    add("joker-cost", N_("What does a joker left in hand cost?"), cost, "rule-penalty-values",
        ("joker_points", "wild_rank_points"))
    stock = {"reshuffle": N_("The discards, all but the top card, are shuffled into a new stock, and play goes on."),
             "end_hand": N_("The hand ends there, and every player scores the cards in hand.")}
    add("stock-out", N_("What happens when the stock runs out?"), gettext(stock[house.stock_exhausted]),
        "rule-stock-exhausted", ("stock_exhausted",))
    for r in out:
        r.links = {"rule": rule_url(fam.id, r.rule), "title": rule_title(fam.id, r.rule)}
    return out


def house_words(r: Ruling) -> str:
    """What the page says under an answer about where it comes from."""
    if r.house == "changed":
        return gettext("A house rule of this table: %(rules)s.", rules=in_a_list([option_label(o) for o in r.options]))
    if r.house == "silent" and r.open_options:
        return gettext("The rules leave this to the table; this is the app's choice. The house rule that changes "
                       "it: %(rules)s.", rules=in_a_list([option_label(o) for o in r.open_options]))
    if r.house == "silent":
        return gettext("The rules do not say; this is the app's choice.")
    return ""


def answers(rules: Rules) -> list[dict[str, Any]]:
    """The rulings as the page shows them."""
    return [{"key": r.key, "question": r.question, "answer": r.answer, "house": r.house, "from": house_words(r),
             "rule": r.links["rule"], "title": r.links["title"]} for r in table_rulings(rules)]
