"""The message catalog: lookups, fallbacks, and an entry for every refusal code the code can raise."""

from __future__ import annotations

import logging
import re
import string
from pathlib import Path

import pytest

from bot.engine.errors import IllegalMove
from bot.i18n import CATALOGS, LOCALES, set_strict, speaking, t
from bot.i18n.en import MESSAGES
from bot.render.refusal import error_text, refusal_for
from bot.service import TABLE_ERROR_CODES, TableError

ROOT = Path(__file__).resolve().parents[2]
RAISE = re.compile(r'IllegalMove\(\s*"(?P<code>[^"]+)"\s*,\s*"(?P<rule>R\d+)"')


def engine_codes() -> set[tuple[str, str]]:
    """(code, rule) of every IllegalMove raised in bot/engine, read from the source."""
    found = set()
    for path in sorted((ROOT / "bot" / "engine").glob("*.py")):
        if path.name == "errors.py":  # the class itself and its docstring example
            continue
        source = path.read_text()
        calls = source.count("IllegalMove(")
        literal = RAISE.findall(source)
        # A code built at run time could not be checked here, so every call must spell its code out.
        assert calls == len(literal), f"{path.name}: an IllegalMove without a literal code and rule"
        found |= set(literal)
    return found


def table_codes() -> set[str]:
    """Every TableError code of the service (bot/table*.py): the declared list and each literal raise."""
    found = set(TABLE_ERROR_CODES)
    for path in sorted((ROOT / "bot").glob("table*.py")):
        found |= set(re.findall(r'TableError\(\s*"([^"]+)"', path.read_text()))
    return found


def test_the_engine_raises_codes_this_scan_can_see() -> None:
    codes = {code for code, _ in engine_codes()}
    assert {"meld.mixed_suits", "turn.must_draw", "discard.taken_card"} <= codes


def test_every_illegal_move_code_has_a_message_in_words_without_its_rule_id() -> None:
    missing = sorted(code for code, _ in engine_codes() if f"error.{code}" not in MESSAGES)
    assert missing == []
    for code, rule in engine_codes():
        for locale in LOCALES:
            with speaking(locale):
                text = error_text(IllegalMove(code, rule))
            # The rule's id is for the logs: a player cannot look it up outside /romme rules.
            assert rule not in text and not re.search(r"\bR\d", text), (locale, text)
            assert text and code not in text  # plain words, not the id


def test_every_table_error_code_has_a_message() -> None:
    missing = sorted(code for code in table_codes() if f"error.{code}" not in MESSAGES)
    assert missing == []
    for code in table_codes():
        # The service passes these params; the message must format with them (strict mode raises).
        params: dict[str, object] = {"game_id": 9, "seats": 6, "needed": 2, "version": 3, "to_play": 1}
        # The settings' refusals name the setting, the value and its range, or the channels.
        params |= {
            "setting": "jokers",
            "value": 3,
            "low": 2,
            "high": 6,
            "channel": "<#1>",
            "channels": "<#1>",
        }
        text = error_text(TableError(code, **params))
        assert text and code not in text


def test_a_refusal_says_the_rule_in_plain_words_without_its_id() -> None:
    # R12: the card taken from the discard pile stays.
    text = refusal_for(IllegalMove("discard.taken_card", "R12", "internal wording"))
    assert text == "⚠️ You may not discard the card you took from the discard pile this turn."
    assert "R12" not in text and "rule" not in text


def test_an_unexpected_error_gets_the_short_apology() -> None:
    assert error_text(RuntimeError("boom")) == t("error.unexpected")


def test_labels_are_exactly_the_product_spec() -> None:
    spec = {
        "button.join": "Join",
        "button.leave": "Leave",
        "button.add_computer": "Add computer",
        "button.start": "Start",
        "button.cancel": "Cancel",
        "button.hand": "My hand",
        "button.draw": "Draw",
        "button.take": "Take discard",
        "button.sort": "Sort",
        "button.meld": "Meld",
        "button.lay_off": "Lay off",
        "button.swap_joker": "Swap joker",
        "button.discard": "Discard",
        "button.take_back": "Take back",
        "button.hint": "Hint",
        "button.next_round": "Next round",
        "button.play_again": "Play again",
    }
    assert {key: t(key) for key in spec} == spec


def test_every_message_is_a_valid_template() -> None:
    for key, text in MESSAGES.items():
        fields = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
        assert all(name.isidentifier() for name in fields), key


def test_a_missing_key_raises_under_tests() -> None:
    with pytest.raises(KeyError, match=r"no\.such\.key"):
        t("no.such.key")


def test_a_missing_param_raises_under_tests() -> None:
    with pytest.raises(KeyError, match=r"table\.stock"):
        t("table.stock")


def test_in_production_a_missing_key_shows_the_key_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    set_strict(False)
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        assert t("no.such.key") == "no.such.key"
        assert t("table.stock") == MESSAGES["table.stock"]
    assert "no.such.key" in caplog.text and "table.stock" in caplog.text


def test_another_locale_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CATALOGS, "de", {"button.join": "Beitreten"})
    assert t("button.join", locale="de") == "Beitreten"
    assert t("button.leave", locale="de") == "Leave"
    assert t("button.leave", locale="xx") == "Leave"


LITERAL_KEY = re.compile(r'\bt\(\s*"([a-z_][a-z0-9_.]*)"')


def test_every_literal_key_the_code_looks_up_is_in_the_catalog() -> None:
    # A key spelled out in the renderers or the cogs must exist: in production a missing one shows raw.
    paths = [*(ROOT / "bot" / "render").glob("*.py"), *(ROOT / "cogs").glob("*.py")]
    used = {key for path in paths for key in LITERAL_KEY.findall(path.read_text())}
    assert {"command.joined", "game.exists.jump", "error.bot_permission"} <= used
    assert sorted(used - set(MESSAGES)) == []


def test_the_join_and_leave_answers_name_the_game() -> None:
    assert t("command.joined", game_id=4) == "You took a seat in game 4."
    assert "computer" in t("command.left.running", game_id=4)
    assert "https://x" in t("game.exists.jump", link="https://x")
