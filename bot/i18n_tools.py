"""The translators' files, made from the English catalog: ``python -m bot.i18n_tools``.

Run it after changing any catalog. It writes

- ``bot/locales/messages.pot``, the template: every key with its English text as a comment and an
  empty translation, to start a new language from (see "How to add a language" in the README);
- the English ``messages.po`` again, in the one layout all catalogs share (a message on one line);
- each other language's ``messages.po`` again, in the English catalog's order, with the English text of
  every message as a ``#.`` comment above it, so a translator sees what to translate, not only a key.

``python -m bot.i18n_tools --check`` changes nothing and fails (exit status 1) when a file is not what
the command would write; the tests run the same check, so CI fails on a stale template or comment.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from .i18n import ENGLISH, LOCALES_DIR, catalog_path, read_catalog

TEMPLATE = LOCALES_DIR / "messages.pot"
COMMAND = "python -m bot.i18n_tools"
ENGLISH_FORMS = ("one", "other")  # the English catalog's plural forms, in its order


def _key(message: Message) -> str:
    return str(message.id[0] if message.pluralizable else message.id)


def english_comments(message: Message) -> list[str]:
    """The English text of `message` as comment lines, one per line of text (and per plural form)."""
    if not message.pluralizable:
        return [f"English: {line}" for line in str(message.string).split("\n")]
    return [
        f"English ({form}): {line}"
        for form, text in zip(ENGLISH_FORMS, tuple(message.string or ()), strict=True)
        for line in str(text).split("\n")
    ]


def _render(catalog: Catalog) -> bytes:
    out = BytesIO()
    # No wrapping (a width nothing reaches; 0 would still wrap comments): a message and its English comment
    # each stay on one line however long, so a change shows as one changed line.
    write_po(out, catalog, width=1 << 20, omit_header=False, include_lineno=False, sort_output=False)
    # Babel stamps its own version and a placeholder address in the header: left out, so that another
    # Babel writes the same file and translators see no "EMAIL@ADDRESS".
    return re.sub(rb'"(?:Generated-By: [^"]*|Report-Msgid-Bugs-To: EMAIL@ADDRESS)\\n"\n', b"", out.getvalue())


def template() -> bytes:
    """The .pot template: each English key, its English text as a comment, nothing translated."""
    english = read_catalog(ENGLISH)
    pot = Catalog(
        domain="messages",
        project="wizard-discord",
        version="0.1.0",
        header_comment=(
            "# Template of the Wizard bot's texts, made from the English catalog by\n"
            f"# `{COMMAND}`: do not edit it by hand.\n"
            "# Copy it to <lang>/LC_MESSAGES/messages.po to start a language (README: How to add a language)."
        ),
        creation_date=english.creation_date,
        revision_date=english.revision_date,
        fuzzy=False,
    )
    for message in english:
        if not message.id:
            continue
        key = _key(message)
        pot.add(
            (key, key) if message.pluralizable else key,
            ("", "") if message.pluralizable else "",
            auto_comments=english_comments(message),
            user_comments=message.user_comments,
        )
    return _render(pot)


def annotated(language: str) -> bytes:
    """`language`'s catalog in the English order, each message with the English text as a comment."""
    english = read_catalog(ENGLISH)
    catalog = read_catalog(language)
    translated = {_key(message): message for message in catalog if message.id}
    order = [_key(message) for message in english if message.id]
    rest = [key for key in translated if key not in set(order)]  # not in English: the tests report them
    for key in order + rest:
        del catalog[translated[key].id]
    for message in english:
        if message.id and _key(message) in translated:
            found = translated[_key(message)]
            found.auto_comments = english_comments(message)
            catalog[found.id] = found
    for key in rest:
        catalog[translated[key].id] = translated[key]
    return _render(catalog)


def outputs() -> dict[Path, bytes]:
    """Every file the command writes, with the bytes it writes."""
    files = {TEMPLATE: template(), catalog_path(ENGLISH): _render(read_catalog(ENGLISH))}
    for path in sorted(LOCALES_DIR.glob("*/LC_MESSAGES/messages.po")):
        language = path.parent.parent.name
        if language != ENGLISH:
            files[catalog_path(language)] = annotated(language)
    return files


def stale() -> list[Path]:
    """The files that are not what the command would write."""
    return [path for path, data in outputs().items() if not path.exists() or path.read_bytes() != data]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a file is out of date")
    args = parser.parse_args(argv)
    if args.check:
        late = stale()
        for path in late:
            print(f"{path} is out of date: run {COMMAND}", file=sys.stderr)
        return 1 if late else 0
    for path, data in outputs().items():
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
