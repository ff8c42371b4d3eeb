"""Deutsche Texte: dieselben Schlüssel und Platzhalter wie ``bot/i18n/en.py``.

Die Wörter des Spieltischs: auslegen (eine Kombination ablegen), anlegen (an eine Kombination auf
dem Tisch), Joker tauschen, Stapel (der Talon), Ablagestapel, Erstauslage (die ersten Kombinationen,
zusammen 40 Punkte), Hand-Rommé, Stechrunde (bei Gleichstand). Angesprochen wird mit „du“.
"""

from __future__ import annotations

from bot.i18n.glossary import Term

GLOSSARY: dict[str, Term] = {
    # Ein Wort je Sache, auf jeder Ansicht (geprüft von tests/i18n/test_glossary.py): welche Einträge
    # von der Sache sprechen, sagt ihr englischer Text (en.py, GLOSSARY).
    "opening": Term(r"Erstauslage", forbidden=(r"\berste[sn]? Auslegen\b", r"\bzum Auslegen\b"), always=True),
    "meld": Term(r"Kombination|auslegen|ausgelegt|lege\w* .*aus\b|\bAuslage"),
    "run": Term(
        r"\bReihen?\b",
        forbidden=(r"(?-i:\bFolgen?\b)",),
        allowed={"rules.summary": "„in Folge“ heißt dort „nacheinander“, nicht die Kombination"},
    ),
    "lay_off": Term(r"anleg|\blege\w* an\b|legte .* an\b", always=True),
    "went_out": Term(r"ausmach|ausgemacht|\bmach\w* .*\baus\b", always=True),
    "scoring": Term(r"Zählweise|gezählt", always=True),
    # „Wertung“ ist die Wertungszahl (wie bei Lichess), nie die Hausregel der Zählweise.
    "rating": Term(r"Wertung|gewertet", always=True, only_here=True),
    "replay": Term(r"\bReplay", forbidden=(r"Wiederholung",), always=True),
    # Die Nummer einer Partie heißt überall „Partie 5“, nie „Spiel 5“.
    "match": Term(r"\bPartie", forbidden=(r"\bSpiel \{\}", r"\bSpiel beenden\b")),
    "round": Term(r"Runde"),
    "lobby": Term(r"\bLobby", always=True),
    "host": Term(r"Gastgeber"),
    "game_master": Term(r"Spielleitung", always=True),
    "settings": Term(r"Einstellung", always=True),
    "preferences": Term(r"Einstellung", forbidden=(r"Vorliebe",), always=True),
    "panel": Term(r"Ansicht", forbidden=(r"\bTafel\b",)),
    "text_cards": Term(r"\bText\b", forbidden=(r"\bals Schrift\b",), always=True),
    "sort": Term(r"sortier|Sortierung", forbidden=(r"\bOrdnung\b", r"\bgeordnet\b"), always=True),
    # „das Blatt“ ist hier die Hand; „zwei Blätter“ (die Kartenspiele) bleiben erlaubt.
    "hand": Term(r"\bHand\b|\bKarten\b", forbidden=(r"\bBlatt\b",)),
    "button": Term(r"\bButtons?\b", forbidden=(r"\bKn(?:o|ö)pf", r"\bTaste\b"), always=True),
}
"""Ein Begriff je Sache (siehe :mod:`bot.i18n.glossary`)."""

MESSAGES: dict[str, str] = {
    # --- Wörter aller Ansichten: Karten, Kombinationen, Plätze, Stufen, Aufzählungen, Zahlen, Sprachen ---
    "cards.none": "—",
    "meld.line": "`{meld_id}` {owner}: {cards} ({points})",
    "meld.pending_line": "{cards} ({points})",
    "meld.more": "… und {count} weitere Kombinationen",
    "meld.more.one": "… und 1 weitere Kombination",
    "seat.tag.away": "abwesend",
    "seat.tag.left": "ausgestiegen",
    "seat.tag.sits_out": "setzt im Stechen aus",
    "seat.tag.level.easy": "leicht",
    "seat.tag.level.normal": "mittel",
    "seat.tag.level.hard": "schwer",
    "seat.opened": "ausgelegt",
    "seat.not_opened": "noch nicht ausgelegt",
    "seat.cards": "{count} Karten",
    "seat.card": "1 Karte",
    "seat.points": "{points} Punkte",
    "seat.points.one": "{points} Punkt",
    "seat.computer": "Computer {number}",
    "level.easy": "leicht",
    "level.normal": "mittel",
    "level.hard": "schwer",
    "list.pair": "{first} und {last}",
    "list.separator": ", ",
    "number.group": ".",
    "number.group.rating": "",
    "number.percent": "{percent} %",
    "language.name": "Deutsch",
    "language.en": "English",
    "language.de": "Deutsch",
    "language.id": "Bahasa Indonesia",
    # --- Lobby: Nachricht und Knöpfe, die angezeigten Hausregeln, /romme join und leave ---
    "lobby.title": "Rommé — eine neue Partie",
    "lobby.description": (
        "Gastgeber: {host}. Klick auf **Mitspielen**, um dich an den Tisch zu setzen. Der Gastgeber "
        "klickt auf **Starten**, sobald 2 bis 6 Plätze besetzt sind."
    ),
    "lobby.seats": "Plätze ({count}/{max})",
    "lobby.no_seats": "Noch niemand.",
    "lobby.house_rules": "Hausregeln",
    "lobby.cancelled": "Diese Partie wurde abgebrochen.",
    "lobby.expired": (
        "Diese Lobby hat sich von selbst geschlossen: Niemand hat die Partie rechtzeitig gestartet. "
        "Mit /romme start kann hier jeder einen neuen Tisch eröffnen."
    ),
    "lobby.started": "Die Partie läuft: Der Tisch steht unten.",
    "lobby.footer": "Partie {game_id}",
    "lobby.language": "Sprache: {language}",
    "lobby.server_house_rules": "Hausregeln dieses Servers",
    "button.join": "Mitspielen",
    "button.leave": "Aussteigen",
    "button.add_computer": "Computer hinzufügen",
    "button.start": "Starten",
    "button.cancel": "Abbrechen",
    "rules.jokers": "Joker: {count}",
    "rules.opening": "Erstauslage: {points} Punkte",
    "rules.scoring.melds": "Zählweise: Ausgelegtes minus Handkarten",
    "rules.scoring.penalty": "Zählweise: Strafpunkte, nur die Handkarten zählen",
    "rules.hand_romme.on": "Hand-Rommé verdoppelt die Handpunkte der anderen",
    "rules.hand_romme.off": "Kein Bonus für Hand-Rommé",
    "rules.discard_to_go_out.on": "Ausmachen nur durch Abwerfen der letzten Karte",
    "rules.discard_to_go_out.off": ("Man darf auch durch Auslegen oder Anlegen der letzten Karte ausmachen"),
    "rules.rounds.per_seat": "Runden: eine pro Spieler",
    "rules.rounds.fixed": "Runden: {count}",
    "rules.turn_timeout": "Zugzeit: {seconds} s",
    "rules.computers": "Computerspieler: {count}",
    "command.joined": "Du sitzt jetzt am Tisch von Partie {game_id}.",
    "command.left": "Du bist aus Partie {game_id} ausgestiegen.",
    "command.left.running": "Du bist aus Partie {game_id} ausgestiegen: Der Computer spielt jetzt für dich.",
    "command.thread_opened": "{host} hat einen Rommé-Tisch eröffnet: {thread}",
    # --- Tisch: die Nachricht, Plätze und Stapel, der letzte Zug in Worten ---
    "table.title": "Rommé — Runde {round} von {rounds}",
    "table.title.tiebreak": "Rommé — Stechrunde {round} (nach {rounds} Runden)",
    "table.title.tiebreak.one": "Rommé — Stechrunde {round} (nach {rounds} Runde)",
    "table.dealer": "Geber: {name}",
    "table.turn.draw": "Am Zug: {who} — Karte ziehen",
    "table.turn.play": "Am Zug: {who} — auslegen, anlegen oder abwerfen",
    "table.turn.deadline": "Die Zugzeit endet {when}",
    "table.round_over": "Die Runde ist vorbei.",
    "table.seats": "Plätze",
    "table.seat_line": "{marker}**{name}** — {cards} · {opened} · {total}{tags}",
    "table.piles": "Stapel und Ablage",
    "table.stock": "Stapel: {count} Karten",
    "table.stock.one": "Stapel: 1 Karte",
    "table.discard_top": "Ablagestapel: {card} oben ({cards})",
    "table.discard_empty": "Ablagestapel: leer",
    "table.reshuffles": "Neu gemischt: {count} von 3",
    "table.melds": "Kombinationen auf dem Tisch",
    "table.melds.more": "Kombinationen auf dem Tisch (Fortsetzung)",
    "table.no_melds": "Noch keine.",
    "table.last_move": "Letzter Zug",
    "table.footer": "Partie {game_id} · klick auf Meine Karten, um deine Karten zu sehen",
    "table.content.turn": "{mention}, du bist dran.",
    "table.moved": "Runde {round} wurde hier gespielt; der Tisch der nächsten Runde steht weiter unten.",
    "table.footer.over": "Partie {game_id} ist vorbei: Die Ergebnisse stehen weiter unten",
    "table.results": "**Die Partie ist vorbei:** [zu den Ergebnissen]({url})",
    "event.draw.stock": "zog vom Stapel",
    "event.draw.discard": "nahm {card}",
    "event.meld": "legte {cards} aus",
    "event.meld.proposed": "schlug eine Kombination für die Erstauslage vor",
    "event.opened": "kam mit {cards} heraus ({points} Punkte)",
    "event.opened.no_points": "kam mit {cards} heraus",
    "event.lay_off": "legte {cards} an {meld_id} an",
    "event.swap_joker": "holte mit {card} den Joker aus {meld_id} (neu ausgelegt: {cards})",
    "event.discard": "warf {card} ab",
    "event.take_back": "nahm die vorgeschlagenen Kombinationen zurück",
    "event.timeout": "hatte keine Zeit mehr: Der Computer übernahm den Zug",
    "event.away": "ist abwesend: Der Computer übernimmt den Platz",
    "event.left": "stieg aus: Der Computer übernimmt den Platz",
    "event.back": "ist zurück",
    "event.by_computer": " (vom Computer gespielt)",
    "event.round_over.out": "{name} machte aus: Die Runde ist vorbei.",
    "event.round_over.nobody": ("Der Stapel ist aufgebraucht: Die Runde ist vorbei, niemand hat ausgemacht."),
    "event.sentence": "{name} {actions}{note}.",
    "button.hand": "Meine Karten",
    "thread.name": "Rommé, Tisch von {host}",
    "game.exists.jump": "Zum Tisch: {link}",
    # --- Handkarten: Knöpfe, Auswahlen und der Tipp ---
    "panel.title": "Deine Hand — {count} Karten",
    "panel.title.one": "Deine Hand — 1 Karte",
    "panel.sorted.suit": "Nach Farbe sortiert",
    "panel.sorted.rank": "Nach Wert sortiert",
    "panel.empty_hand": "Deine Hand ist leer.",
    "panel.selected": "Gewählt: {cards}",
    "panel.nothing_selected": "Wähle unten Karten und dann einen Zug.",
    "panel.turn.draw": "Du bist dran: Zieh eine Karte.",
    "panel.turn.play": (
        "Du bist dran: Lege aus, lege an, tausche einen Joker oder wirf ab, um den Zug zu beenden."
    ),
    "panel.turn.waiting": (
        "Du bist noch nicht dran: Diese Ansicht aktualisiert sich von selbst, sobald du am Zug bist."
    ),
    "panel.turn.deadline": "Deine Zugzeit endet {when}.",
    "panel.round_over": "Die Runde ist vorbei.",
    "panel.match_over": "Die Partie ist vorbei.",
    "panel.round_score": "Diese Runde: {score} · insgesamt: {total}",
    "panel.drawn": "➕ Du hast **{card}** gezogen.",
    "panel.table": "Auf dem Tisch",
    "panel.meld_short": "`{meld_id}` {cards}",
    "panel.moved": "Diese Ansicht ist umgezogen: Deine Karten stehen in der neuesten Ansicht weiter unten.",
    "panel.sitting_out": "Du setzt in dieser Stechrunde aus.",
    "panel.pending": "Vorgeschlagene Kombinationen: {points} von {needed} Punkten für die Erstauslage",
    "panel.pending.one": "Vorgeschlagene Kombinationen: {points} von {needed} Punkt für die Erstauslage",
    "panel.opened": "Du hast ausgelegt: Du darfst anlegen und Joker tauschen.",
    "panel.opening_needed": "Erstauslage: Deine ersten Kombinationen müssen {points} Punkte erreichen.",
    "panel.taken": (
        "Du hast {card} vom Ablagestapel genommen: Diese Karte darfst du in diesem Zug nicht abwerfen."
    ),
    "panel.target.lay_off": "Wähle die Kombination, an die du {cards} anlegst.",
    "panel.target.swap_joker": (
        "Wähle den Joker zum Tauschen: Die übrigen gewählten Karten bilden mit ihm eine neue Kombination."
    ),
    "panel.swap.one": (
        "{card} kann in {melds} den Platz des Jokers einnehmen. Wähle jetzt {card} zusammen mit den "
        "Karten, die mit dem frei gewordenen Joker eine neue Kombination bilden (zwei oder mehr), "
        "und klick noch einmal auf Joker tauschen."
    ),
    "panel.swapped": (
        "Du hast {card} in {meld_id} für den Joker eingesetzt und den Joker mit {cards} ausgelegt."
    ),
    "panel.footer": "Nur du siehst diese Karten. Partie {game_id}",
    "button.draw": "Ziehen",
    "button.take": "Ablage nehmen",
    "button.sort": "Sortieren",
    "button.meld": "Auslegen",
    "button.lay_off": "Anlegen",
    "button.swap_joker": "Joker tauschen",
    "button.discard": "Abwerfen",
    "button.take_back": "Zurücknehmen",
    "button.hint": "Tipp",
    "select.cards": "Karten aus deiner Hand wählen",
    "select.cards.more": "Hier lassen sich nur die ersten {count} Karten wählen",
    "select.target.lay_off": "An welche Kombination anlegen?",
    "select.target.swap_joker": "Aus welcher Kombination den Joker tauschen?",
    "select.target.none": "Keine Kombination auf dem Tisch passt",
    "select.option.meld": "{meld_id} · {owner}: {cards}",
    "select.option.meld_end.low": "{meld_id} · {owner}: Joker ans untere Ende",
    "select.option.meld_end.high": "{meld_id} · {owner}: Joker ans obere Ende",
    "select.option.swap_joker": "{meld_id} · {owner}: {card} für den Joker einsetzen",
    "select.discard": "Eine Karte abwerfen und den Zug beenden",
    "hint.title": "Tipp",
    "hint.best": "Die besten Kombinationen auf deiner Hand ({points} Punkte)",
    "hint.none": "Noch keine Kombination auf deiner Hand.",
    "hint.opening_reached": (
        "Deine Kombinationen ergeben {points} Punkte: genug für deine Erstauslage, die {needed} braucht."
    ),
    "hint.opening_short": "Noch nicht genug für deine Erstauslage: {points} von {needed} Punkten.",
    "hint.opening_short.one": "Noch nicht genug für deine Erstauslage: {points} von {needed} Punkt.",
    "hint.opened": "Du hast ausgelegt: Jede Kombination zählt.",
    # --- eine Partie beenden (/romme stop) ---
    "stop.confirm": "Diese Partie beenden? Die bisherigen Ergebnisse bleiben erhalten.",
    "stop.done": "Die Partie wurde beendet.",
    "stop.confirm.leaver": (
        "Du sitzt an diesem Tisch: Beendest du die Partie, kommst du auf den letzten Platz, hinter "
        "alle, die bleiben, und sie wird nach dem bisherigen Stand gewertet."
    ),
    "stop.confirm.standings": "Die Partie wird nach dem bisherigen Stand gewertet.",
    "stop.confirm.unrated": "Noch ist keine Runde zu Ende: Die Partie wird nicht gewertet.",
    "button.stop_yes": "Partie beenden",
    # --- Rundenende ---
    "round_end.title": "Runde {round} ist vorbei",
    "round_end.title.tiebreak": "Stechrunde {round} ist vorbei",
    "round_end.out": "{name} hat ausgemacht.",
    "round_end.out.you": "Du hast ausgemacht.",
    "round_end.hand_romme": "{name} hat auf einen Schlag ausgemacht: Hand-Rommé!",
    "round_end.hand_romme.you": "Du hast auf einen Schlag ausgemacht: Hand-Rommé!",
    "round_end.nobody_out": "Der Stapel ist aufgebraucht: Niemand hat ausgemacht.",
    "round_end.seat_line": (
        "**{name}**: ausgelegt {melded} · auf der Hand {in_hand} · Runde {score} · gesamt {total}"
    ),
    "round_end.scores": "Punkte",
    "round_end.hand_left": "{name}: Karten auf der Hand",
    "round_end.next": "Die nächste Runde beginnt {when}, oder klick auf **Nächste Runde**.",
    "round_end.next_now": "Klick auf **Nächste Runde**, um die nächste Runde zu starten.",
    "round_end.started": "Runde {round} hat begonnen: Der Tisch steht weiter unten.",
    "button.next_round": "Nächste Runde",
    # --- Partieende, und ob und wie die Partie gewertet wird ---
    "match_end.title": "Die Partie ist vorbei",
    "match_end.winner": "🏆 {name} gewinnt mit {points} Punkten.",
    "match_end.winner.one": "🏆 {name} gewinnt mit 1 Punkt.",
    "match_end.winner.you": "🏆 Du gewinnst mit {points} Punkten.",
    "match_end.winner.you.one": "🏆 Du gewinnst mit 1 Punkt.",
    "match_end.cancelled": "Die Partie wurde beendet; die bisherigen Ergebnisse bleiben erhalten.",
    "match_end.idle": (
        "Die Partie hat sich von selbst beendet: Lange hat niemand gespielt. Die bisherigen "
        "Ergebnisse bleiben erhalten."
    ),
    "match_end.no_winner": "Kein Sieger.",
    "match_end.standings": "Endstand",
    "match_end.standing_line": "{place}. **{name}** — {points} Punkte",
    "match_end.standing_line.one": "{place}. **{name}** — {points} Punkt",
    "match_end.tiebreaks": "Gespielte Stechrunden: {count}",
    "match_end.ratings": "Wertungen",
    "match_end.rated.leaver": (
        "Gewertet wird der Stand nach {count} Runden; {name} hat die Partie beendet und kommt auf "
        "den letzten Platz."
    ),
    "match_end.rated.leaver.one": (
        "Gewertet wird der Stand nach 1 Runde; {name} hat die Partie beendet und kommt auf den letzten Platz."
    ),
    "match_end.rated.leaver_no_round": (
        "Gewertet, bevor eine Runde zu Ende war: {name} hat die Partie beendet und kommt auf den "
        "letzten Platz, hinter alle, die geblieben sind."
    ),
    "match_end.rated.standings": "Gewertet wird der Stand nach {count} Runden.",
    "match_end.rated.standings.one": "Gewertet wird der Stand nach 1 Runde.",
    "match_end.unrated.no_round": "Nicht gewertet: Es war noch keine Runde zu Ende.",
    "button.play_again": "Neue Partie",
    # --- Partieverlauf und Wiederholungen ---
    "history.title": "Letzte Partien auf diesem Server",
    "history.title.member": "Letzte Partien von {name}",
    "history.empty": "Hier gibt es noch keine beendete Partie.",
    "history.line": (
        "**{number}.** {when} · Partie {game_id} ({state})\n{places}\nAusgemacht je Runde: {outs}"
    ),
    "history.place": "{place}. {name} ({points})",
    "history.nobody": "niemand",
    "history.finished": "zu Ende gespielt",
    "history.stopped": "abgebrochen",
    "history.button": "Replay {number}",
    "history.more": "… und {count} weitere Partien",
    "history.more.one": "… und 1 weitere Partie",
    "replay.title": "Replay von Partie {game_id} · Runde {round} von {rounds}",
    "replay.title.tiebreak": "Replay von Partie {game_id} · Stechrunde {round}",
    "replay.step": "Schritt {step} von {steps}",
    "replay.deal": "{name} hat die Karten ausgeteilt; aufgedeckt liegt {card}.",
    "replay.move": "{name} hat einen Zug gemacht.",
    "replay.take_back": "{name} hat die vorgeschlagenen Kombinationen zurückgenommen.",
    "replay.hands": "Spieler und ihre Karten",
    "replay.seat": "{marker}**{name}** · {total} Punkte · {count} Karten\n{cards}",
    "replay.seat.one": "{marker}**{name}** · {total} Punkte · 1 Karte\n{cards}",
    "replay.seat_out": "**{name}** · {total} Punkte · setzt diese Runde aus",
    "replay.proposed": "Vorgeschlagen: {cards}",
    "replay.discard": "Ablagestapel: {card} oben ({count} Karten)",
    "replay.discard.one": "Ablagestapel: {card} oben (1 Karte)",
    "replay.meld": "{meld_id} ({owner}): {cards}",
    "replay.footer": "Partie {game_id} · nur du siehst dieses Replay",
    "replay.next_turn": "Nächster Zug",
    "replay.round": "Runde {round}",
    "replay.round_select": "Zu einer Runde springen",
    "replay.download": "Herunterladen",
    "replay.export_ready": "Partie {game_id} als Datei; ihr Aufbau steht in der Anleitung des Bots.",
    "replay.choice": "Partie {game_id} · {when} · {players}",
    # --- Punkte, Bestenliste und Rekorde ---
    "scores.title": "Punktestand — Partie {game_id}",
    "scores.total": "Gesamt",
    "scores.no_rounds": "Noch ist keine Runde zu Ende.",
    "scores.row.round": "R{number}",
    "scores.row.tiebreak": "S{number}",
    "leaderboard.title": "Ewige Bestenliste",
    "leaderboard.empty": "Auf diesem Server hat noch niemand eine Partie beendet.",
    "leaderboard.line": ("{place}. {player} — {matches} · {wins} · {points} Punkte · beste Runde: {best}"),
    "leaderboard.line.one": "{place}. {player} — {matches} · {wins} · {points} Punkt · beste Runde: {best}",
    "count.matches": "{count} Partien",
    "count.matches.one": "{count} Partie",
    "count.wins": "{count} Siege",
    "count.wins.one": "{count} Sieg",
    "record.title": "Spielerbilanz",
    "record.none": "{player} hat auf diesem Server noch keine Partie beendet.",
    "record.body": ("{player}\nPartien: {matches}\nSiege: {wins}\nPunkte: {points}\nBeste Runde: {best}"),
    "record.no_best": "—",
    # --- Wertungen, Saisons, die Tabelle und Profile ---
    "rating.change": "{delta} → {rating}",
    "rating.provisional": "vorläufig",
    "rating.line": "**{name}**: {change}",
    "rating.line.provisional": "**{name}**: {change} ({provisional})",
    "board.title": "Rangliste der Saison {season}",
    "board.title.past": "Saison {season}: Endstand",
    "board.since": "Seit {start}",
    "board.period": "Vom {start} bis {end}",
    "board.line": "{rank}. {player} — {rating} · {matches} · {wins}",
    "board.line.provisional": "{rank}. {player} — {rating} ({provisional}) · {matches} · {wins}",
    "board.empty": "In dieser Saison hat noch niemand eine Wertung: Beende eine Partie, um eine zu bekommen.",
    "board.page": "Seite {page} von {pages} · {size} Spieler mit Wertung",
    "board.elsewhere": "Diese Rangliste gehört zu einem anderen Server.",
    "button.board.previous": "Zurück",
    "button.board.next": "Weiter",
    "season.unknown": "Dieser Server hat noch keine Saison {season}.",
    "season.not_allowed": "Nur ein Mitglied mit „Server verwalten“ kann eine neue Saison beginnen.",
    "season.started": "Auf diesem Server hat die Saison {season} begonnen.",
    "profile.title": "Profil von {name}",
    "profile.none": "{player} hat auf diesem Server noch keine gewertete Partie.",
    "profile.rating": "Wertung (Saison {season})",
    "profile.rating.value": "**{rating}** · Platz {rank} von {size}",
    "profile.rating.provisional": "**{rating}** ({provisional}) · Platz {rank} von {size}",
    "profile.rating.none": "Noch keine Partie in dieser Saison",
    "profile.stats": "Statistik",
    "profile.body": (
        "Partien: {matches}\nSiege: {wins} ({rate})\nDurchschnittlicher Platz: {place}\n"
        "In {out} der Runden ausgemacht\nBeste Runde: {best_round}\nBeste Partie: {best_match}\n"
        "Hand-Rommé: {hand}\nBesiegte Computerstärken: {levels}"
    ),
    "profile.chart": "Die Wertung über die letzten {count} Partien",
    "profile.chart.one": "Die Wertung nach der ersten Partie",
    "profile.nothing": "—",
    # --- Servereinstellungen ---
    "settings.title": "Servereinstellungen",
    "settings.description": (
        "Die Vorgaben jeder neuen Partie auf diesem Server. Die Optionen von /romme start ändern sie "
        "weiterhin für eine Partie."
    ),
    "settings.house_rules": "Hausregeln",
    "settings.games": "Neue Partien",
    "settings.places": "Kanäle und Spielleitung",
    "settings.on": "an",
    "settings.off": "aus",
    "settings.language.server": "die Sprache des Servers",
    "settings.line.language": "Sprache: {language}",
    "settings.line.turn_timeout": "Zugzeit: {seconds} s",
    "settings.line.lobby_timeout": "Eine nicht begonnene Lobby schließt nach {minutes} Minuten",
    "settings.line.computer_level": "Stärke der Computer: {level}",
    "settings.line.threads": "Jede Partie in einem eigenen Thread: {value}",
    "settings.line.channels": "Partien erlaubt in: {channels}",
    "settings.line.role": "Rolle der Spielleitung: {role}",
    "settings.channels.all": "allen Kanälen",
    "settings.role.none": "keine (nur „Server verwalten“)",
    "settings.level.easy": "leicht",
    "settings.level.normal": "mittel",
    "settings.level.hard": "schwer",
    "settings.pick": "Eine Hausregel, die Sprache, die Stärke … ändern",
    "settings.channels.pick": "Kanäle, in denen Partien beginnen dürfen (keiner gewählt: alle)",
    "settings.role.pick": "Rolle der Spielleitung, gewählt mit „Server verwalten“ (darf jede Partie beenden)",
    "settings.numbers": "Zahlen …",
    "settings.reset": "Alles zurücksetzen",
    "settings.reset.done": "alle Einstellungen auf die Vorgaben des Bots zurückgesetzt",
    "settings.reset.kept_role": (
        "alle Einstellungen auf die Vorgaben des Bots zurückgesetzt, bis auf die Rolle der Spielleitung "
        "(die ändert nur „Server verwalten“)"
    ),
    "settings.numbers.title": "Servereinstellungen: Zahlen",
    "settings.input.opening": "Punkte für die Erstauslage ({low}-{high})",
    "settings.input.opening.hint": "40",
    "settings.input.rounds": "Runden ({low}-{high})",
    "settings.input.rounds.hint": "leer: eine je Spieler",
    "settings.input.turn_timeout": "Zugzeit in Sekunden ({low}-{high})",
    "settings.input.turn_timeout.hint": "leer: die des Bots",
    "settings.input.lobby_timeout": "Lobby schließt nach … Minuten ({low}-{high})",
    "settings.input.lobby_timeout.hint": "leer: die des Bots",
    "settings.name.language": "Sprache",
    "settings.name.jokers": "Joker",
    "settings.name.opening": "Erstauslage",
    "settings.name.scoring": "Zählweise",
    "settings.name.hand_romme": "Hand-Rommé",
    "settings.name.discard_to_go_out": "Ausmachen nur mit Abwurf",
    "settings.name.rounds": "Runden",
    "settings.name.turn_timeout": "Zugzeit",
    "settings.name.lobby_timeout": "Wartezeit der Lobby",
    "settings.name.computer_level": "Stärke der Computer",
    "settings.name.threads": "Partien in Threads",
    "settings.name.channels": "Kanäle",
    "settings.name.game_master_role": "Rolle der Spielleitung",
    "settings.name.cards": "Karten",
    "settings.name.sort": "Sortierung",
    "settings.name.mention": "Erwähnung",
    "settings.name.?": "Einstellung",
    "settings.saved": "✅ Gespeichert: {what}",
    "settings.ratings": "Wertungen",
    "settings.line.season_length": "Saisons: {length}",
    "settings.season.monthly": "je ein Kalendermonat (UTC)",
    "settings.season.manual": "nur von Hand begonnen (/romme season)",
    "settings.season.days": "je {count} Tage",
    "settings.season.days.one": "je 1 Tag",
    "settings.input.season_length": "Saisonlänge in Tagen ({low}-{high})",
    "settings.input.season_length.hint": "leer: wie in der Liste gewählt",
    "settings.name.season_length": "Saisonlänge",
    # --- Vorlieben ---
    "preferences.title": "Deine Einstellungen",
    "preferences.description": "Gilt für dich auf jedem Server.",
    "preferences.cards.faces": "Karten als Bilder",
    "preferences.cards.text": "Karten als Text (für Screenreader)",
    "preferences.sort.suit": "Hand nach Farbe sortiert",
    "preferences.sort.rank": "Hand nach Wert sortiert",
    "preferences.language": "Sprache privater Antworten: {language}",
    "preferences.language.discord": "Sprache deines Geräts",
    "preferences.mention.on": "Mich erwähnen, wenn ich dran bin",
    "preferences.mention.off": "Mich nicht erwähnen, wenn ich dran bin",
    "preferences.pick": "Eine Einstellung ändern …",
    "preferences.name.cards": "Karten",
    "preferences.name.sort": "Sortierung",
    "preferences.name.language": "Sprache",
    "preferences.name.mention": "Erwähnung",
    # --- Hilfe und Kurzregeln ---
    "help.title": "Rommé: so wird gespielt",
    "help.about": (
        "Rommé spielt man zu zweit bis zu sechst mit zwei Blättern zu je 52 Karten und Jokern.\n"
        "Bilde aus deinen Karten Sätze (gleicher Wert) und Reihen (gleiche Farbe, lückenlos) und lege sie "
        "aus.\n"
        "Wer zuerst alle Karten los ist, macht aus und beendet die Runde; die anderen zählen, was sie noch "
        "auf der Hand haben."
    ),
    "help.turn": "Ein Zug in fünf Schritten",
    "help.turn.steps": (
        "1. Drücke **{hand}**, um deine Karten privat zu sehen.\n"
        "2. **{draw}**: eine Karte vom Stapel, oder **{take}**.\n"
        "3. Wähle Karten und drücke **{meld}** (für die Erstauslage brauchst du die nötigen Punkte).\n"
        "4. **{lay_off}**: Karten an ausgelegte Kombinationen anlegen.\n"
        "5. **{discard}**: eine Karte abwerfen, dann ist der Nächste dran."
    ),
    "help.commands": "Befehle",
    "help.commands.list": (
        "/romme start: einen Tisch öffnen · /romme join, /romme leave: mitspielen oder aussteigen\n"
        "/romme hand: deine Karten · /romme score: der Punktestand · /romme rules: die Regeln in Kürze\n"
        "/romme stop: die Partie beenden · /romme preferences: deine Einstellungen · /romme settings: die "
        "Vorgaben des Servers · /romme help: diese Seite\n"
        "/romme history, /romme replay: die letzten Partien, Zug für Zug noch einmal · /romme profile: "
        "Wertung und Bilanz eines Mitglieds · /romme season: eine neue Saison"
    ),
    "help.rule_book": "Das Regelbuch",
    "help.tip": (
        "💡 Tipp: Wähle unten Karten aus und klick dann auf einen Button; /romme help erklärt einen Zug "
        "Schritt für Schritt."
    ),
    "help.early_end.title": "Eine Partie vorzeitig beenden",
    "help.early_end": (
        "Wer am Tisch sitzt und die Partie beendet (/romme stop), kommt auf den letzten Platz, "
        "hinter alle, die geblieben sind, und die Partie wird nach dem bisherigen Stand gewertet, "
        "auch schon in der ersten Runde. Beendet sie ein Mitglied, das nicht mitspielt („Server "
        "verwalten“ oder die Rolle der Spielleitung), oder endet sie von selbst, weil niemand "
        "spielt, wird sie nach dem bisherigen Stand gewertet, sobald eine Runde zu Ende ist, "
        "vorher gar nicht."
    ),
    "help.seasons.title": "Saisons",
    "help.seasons": (
        "Eine Saison dauert einen Kalendermonat (UTC); in den Einstellungen des Servers (/romme settings) "
        "lässt sich stattdessen eine Zahl von Tagen einstellen oder festlegen, dass Saisons nur von Hand "
        "beginnen. Ein Mitglied mit „Server "
        "verwalten“ startet die nächste jederzeit mit /romme season. Zu Beginn einer Saison ist die "
        "Rangliste leer und jede Wertung unsicherer: Sie wird niedriger angezeigt und gilt 5 Partien lang "
        "als vorläufig. Die Spielstärke dahinter bleibt erhalten, ebenso Siege, Punkte, Profile und der "
        "Endstand jeder früheren Saison (`/romme score season:`)."
    ),
    "rules.title": "Rommé — die Regeln in Kürze",
    "rules.summary": (
        "Zwei Kartenspiele mit Jokern. Jeder Spieler bekommt 13 Karten; der Rest ist der Stapel "
        "(Talon), seine oberste Karte beginnt den Ablagestapel (R1, R5).\n"
        "**Dein Zug:** Zieh vom Stapel oder nimm die oberste Karte vom Ablagestapel; dann lege aus, "
        "lege an und tausche Joker, so viel du willst; zum Schluss wirfst du eine Karte ab (R11). "
        "Eine vom Ablagestapel genommene Karte darfst du im selben Zug nicht wieder abwerfen (R12).\n"
        "**Kombinationen:** Eine Reihe sind 3 oder mehr Karten einer Farbe in Folge (A-2-3 oder "
        "Q-K-A, nie K-A-2); ein Satz sind 3 bis 4 Karten gleichen Werts in verschiedenen Farben. Ein "
        "Joker kann jede Karte ersetzen; eine Kombination mit zwei oder mehr Jokern braucht mindestens "
        "zwei echte Karten (R7-R10).\n"
        "**Erstauslage:** Deine ersten Kombinationen müssen zusammen {opening} Punkte wert sein; bis "
        "dahin sind sie nur vorgeschlagen und du kannst sie zurücknehmen (R13). Danach darfst du an "
        "jede Kombination anlegen und einen Joker gegen die Karte tauschen, die er vertritt "
        "(R14-R16).\n"
        "**Ausmachen:** Die Runde endet, sobald eine Hand leer ist (R17). **Punkte:** 2-10 nach "
        "Augenzahl, J Q K (Bube, Dame, König) 10, A (Ass) 1 oder 11, Joker auf der Hand 20 (R2)."
    ),
    "rules.book": (
        "Alle Regeln mit ihrer Nummer (R1-R22) stehen im Regelbuch, docs/rules.de.md im Quelltext des Bots."
    ),
    "rules.house_rules": "Die Hausregeln dieser Partie",
    "rules.default_house_rules": "Die Standard-Hausregeln",
    "rules.book.link": "Alle Regeln mit ihrer Nummer (R1-R22) stehen im [Regelbuch]({url}).",
    # --- Ablehnungen und Fehler (jede sagt, was nicht ging) ---
    "refusal": "⚠️ {text}",
    "error.unknown": "Dieser Zug ist nicht erlaubt.",
    "error.unexpected": (
        "Entschuldigung, da ist etwas schiefgegangen. Das Spiel ist unverändert; versuch es bitte noch "
        "einmal."
    ),
    "error.bad_component": "Dieser Button funktioniert nicht mehr.",
    "error.click.other_server": "Dieser Button gehört zu einer Partie auf einem anderen Server.",
    "error.click.other_channel": "Dieser Button gehört zu einer Partie in einem anderen Kanal.",
    "error.click.cannot_view": "Du kannst den Kanal dieser Partie nicht sehen.",
    "error.click.other_message": "Dieser Button gehört zu keiner Nachricht seiner Partie.",
    # Engine: Zugfolge und Phasen
    "error.turn.not_your_turn": "Du bist nicht am Zug.",
    "error.turn.must_draw": "Zieh zuerst eine Karte.",
    "error.turn.already_drawn": "Du hast in diesem Zug schon eine Karte gezogen.",
    "error.turn.sitting_out": "Du setzt in dieser Stechrunde aus.",
    "error.round.over": "Die Runde ist vorbei.",
    "error.card.not_in_hand": "Diese Karte hast du nicht auf der Hand.",
    "error.discard.taken_card": "Die Karte vom Ablagestapel darfst du in diesem Zug nicht abwerfen.",
    "error.discard.must_keep_last": (
        "Du brauchst noch eine Karte zum Abwerfen: Deine letzte Karte kannst du hier nicht verwenden."
    ),
    "error.opening.not_opened": (
        "Erst auslegen: Nur wer die Erstauslage geschafft hat, darf anlegen oder Joker tauschen."
    ),
    # Engine: Kombinationen (R7-R10)
    "error.meld.too_short": "Eine Kombination braucht mindestens drei Karten.",
    "error.meld.mixed_suits": "Eine Reihe muss aus einer Farbe bestehen.",
    "error.meld.repeated_suit": "Ein Satz darf keine zwei Karten derselben Farbe haben.",
    "error.meld.not_consecutive": "Die Karten einer Reihe müssen aufeinander folgen.",
    "error.meld.around_corner": "Eine Reihe darf nicht um die Ecke gehen (K-A-2).",
    "error.meld.too_many_jokers": (
        "Eine Kombination mit zwei oder mehr Jokern braucht mindestens zwei echte Karten."
    ),
    "error.meld.jokers_only": "Eine Kombination nur aus Jokern ist nicht erlaubt.",
    "error.meld.too_long": "Diese Kombination wäre zu lang.",
    "error.meld.mixed_ranks": "Ein Satz muss aus Karten gleichen Werts bestehen.",
    "error.meld.repeated_rank": "Eine Reihe darf keinen Wert zweimal haben.",
    "error.meld.invalid": "Diese Karten ergeben keine Kombination.",
    "error.swap.not_replaceable": (
        "Diese Karte kann in dieser Kombination nicht den Platz des Jokers einnehmen."
    ),
    "error.swap.no_card": "Wähle die Karte, die an die Stelle des Jokers kommt.",
    "error.layoff.no_cards": "Wähle mindestens eine Karte zum Anlegen.",
    "error.lay_off.no_cards": "Wähle mindestens eine Karte zum Anlegen.",
    "error.layoff.no_room": "Diese Karten passen nicht an diese Kombination.",
    "error.layoff.bad_end": "Ein Joker kommt ans untere oder obere Ende einer Reihe.",
    "error.layoff.joker_holds_place": (
        "Diesen Platz hält ein Joker: Setz die Karte stattdessen mit **Joker tauschen** ein."
    ),
    "error.table.no_such_meld": "Diese Kombination liegt nicht auf dem Tisch.",
    "error.take_back.nothing_pending": "Du hast keine vorgeschlagene Kombination zum Zurücknehmen.",
    "error.opening.no_card_left": (
        "Dann bliebe dir vor der vollständigen Erstauslage keine Karte zum Abwerfen."
    ),
    "error.draw.discard_empty": "Der Ablagestapel ist leer.",
    "error.draw.no_such_pile": "Zieh vom Stapel oder vom Ablagestapel.",
    "error.discard.no_card": "Wähle die Karte zum Abwerfen.",
    "error.match.over": "Die Partie ist vorbei.",
    "error.seat.unknown": "Diesen Platz gibt es nicht.",
    "error.seats.count": "Eine Partie braucht 2 bis 6 Spieler.",
    # Tischdienst
    "error.game.none_here": "In diesem Kanal läuft keine Partie. Starte eine mit /romme start.",
    "error.game.exists": "In diesem Kanal gibt es schon eine Partie (Partie {game_id}).",
    "error.thread.inside": "Das ist schon ein Thread: Starte die Partie hier ohne die Option `thread`.",
    "error.thread.not_here": "Eine Partie in einem eigenen Thread beginnt in einem Textkanal.",
    "error.thread.cannot_open": "Ich konnte hier keinen Thread eröffnen, daher beginnt keine Partie.",
    "error.bot_permission": (
        "Hier kann ich keinen Tisch führen: Ich brauche in diesem Kanal diese Berechtigungen: {permissions}."
    ),
    "permission.view_channel": "Kanal ansehen",
    "permission.send_messages": "Nachrichten senden",
    "permission.embed_links": "Links einbetten",
    "permission.read_message_history": "Nachrichtenverlauf anzeigen",
    "permission.create_public_threads": "Öffentliche Threads erstellen",
    "permission.send_messages_in_threads": "Nachrichten in Threads senden",
    "error.game.not_running": "Diese Partie läuft nicht.",
    "error.game.not_finished": "Diese Partie ist noch nicht zu Ende.",
    "error.game.changed": (
        "Diese Partie wurde inzwischen anderswo geändert; sie ist wieder aktuell. Versuch es bitte noch "
        "einmal."
    ),
    "error.lobby.closed": "Die Lobby ist geschlossen: Diese Partie hat schon begonnen oder ist vorbei.",
    "error.round.not_over": "Die Runde ist noch nicht vorbei.",
    "error.seat.not_seated": "Du hast keinen Platz in dieser Partie.",
    "error.seat.already_seated": "Du hast schon einen Platz in dieser Partie.",
    "error.lobby.full": "Der Tisch ist voll (6 Plätze).",
    "error.lobby.not_host": "Das darf nur der Gastgeber.",
    "error.lobby.host_limit": (
        "Du leitest auf diesem Server schon {seats} offene Lobbys: Starte oder schließe zuerst eine davon."
    ),
    "error.lobby.host_limit.one": (
        "Du leitest auf diesem Server schon eine offene Lobby: Starte oder schließe sie zuerst."
    ),
    "error.lobby.too_few": "Eine Partie braucht mindestens 2 Spieler.",
    "error.turn.not_yours": "Du bist nicht am Zug.",
    "error.panel.stale": "Diese Ansicht ist veraltet; hier ist eine neue.",
    "error.stop.not_allowed": (
        "Nur der Gastgeber oder ein Mitglied mit „Server verwalten“ kann die Partie beenden."
    ),
    # Verlauf, Einstellungen, Speichern und Formulare
    "error.replay.not_found": (
        "Auf diesem Server gibt es keine beendete Partie {game_id}, die du sehen kannst."
    ),
    "error.replay.running": "Partie {game_id} läuft noch: Das Replay gibt es, sobald sie vorbei ist.",
    "error.replay.none": (
        "Partie {game_id} hat kein Replay: Ihre Züge sind nicht mehr gespeichert, oder sie wurde gespielt, "
        "bevor es Replays gab."
    ),
    "error.settings.not_allowed": (
        "Nur ein Mitglied mit „Server verwalten“ oder der Rolle der Spielleitung kann diese "
        "Einstellungen ändern."
    ),
    "error.settings.not_a_number": "{setting}: „{value}“ ist keine ganze Zahl. Nichts wurde geändert.",
    "error.settings.out_of_range": (
        "{setting}: {value} liegt außerhalb des Bereichs, erlaubt ist {low} bis {high}. "
        "Nichts wurde geändert."
    ),
    "error.settings.bad_value": "{setting}: Dieser Wert steht nicht zur Wahl. Nichts wurde geändert.",
    "error.settings.other_server": (
        "Diese Einstellungen gehören zu einem anderen Server. Nichts wurde geändert."
    ),
    "error.settings.not_yours": (
        "Diese Einstellungen gehören einem anderen Mitglied. Öffne deine eigenen mit /romme preferences."
    ),
    "error.settings.channel_elsewhere": "{channel} ist kein Kanal dieses Servers. Nichts wurde geändert.",
    "error.settings.role_gone": "Diese Rolle gibt es auf diesem Server nicht mehr. Nichts wurde geändert.",
    "error.settings.role_needs_manage_server": (
        "Nur ein Mitglied mit „Server verwalten“ kann die Rolle der Spielleitung wählen oder entfernen. "
        "Nichts wurde geändert."
    ),
    "error.settings.role_everyone": (
        "`@everyone` kann nicht die Rolle der Spielleitung sein: Dann würde jedes Mitglied die Partien "
        "dieses Servers leiten. Nichts wurde geändert."
    ),
    "error.settings.role_managed": (
        "{role} gehört zu einem Bot oder einer verknüpften Anwendung und wird automatisch vergeben; "
        "sie kann daher nicht die Rolle der Spielleitung sein. Nichts wurde geändert."
    ),
    "error.settings.role_above_bot": (
        "{role} steht nicht unter der höchsten Rolle des Bots und kann daher nicht die Rolle der "
        "Spielleitung sein. Wähle eine niedrigere Rolle. Nichts wurde geändert."
    ),
    "error.start.channel_not_allowed": "Hier lassen sich keine Partien starten. Erlaubt sind: {channels}",
    "error.game.moved": (
        "Dieser Tisch läuft jetzt in einem anderen Prozess des Bots. Bitte versuche es noch einmal."
    ),
    "error.bad_form": "Dieses Formular gilt nicht mehr. Nichts wurde geändert.",
    "error.replay.no_round": "Diese Runde gibt es in dieser Partie nicht.",
    "error.command.bad_option": "Diesen Wert nimmt der Befehl nicht an. Nichts wurde geändert.",
    # --- die Slash-Befehle, wie Discord sie zeigt (die Befehlsnamen bleiben /romme …) ---
    "slash.group": "Rommé in diesem Kanal spielen",
    "slash.start": "Einen Tisch in diesem Kanal eröffnen und auf Mitspieler warten",
    "slash.join": "Am Tisch in diesem Kanal Platz nehmen",
    "slash.leave": "Den Tisch verlassen; in einer laufenden Partie übernimmt ein Computer deinen Platz",
    "slash.hand": "Deine Karten zeigen, nur für dich, mit den Buttons zum Spielen",
    "slash.score": "Punktestand der Partie in diesem Kanal, des Servers oder eines Spielers",
    "slash.rules": "Die Regeln in Kürze und die Hausregeln dieses Tisches",
    "slash.stop": "Die Partie in diesem Kanal beenden (Gastgeber oder Server verwalten)",
    "slash.option.jokers": "joker",
    "slash.option.opening": "erstauslage",
    "slash.option.scoring": "zählweise",
    "slash.option.hand_romme": "hand_romme",
    "slash.option.discard_to_go_out": "abwerfen_zum_ausmachen",
    "slash.option.rounds": "runden",
    "slash.option.computers": "computer",
    "slash.option.computer_level": "computerstärke",
    "slash.option.turn_timeout": "zugzeit",
    "slash.option.language": "sprache",
    "slash.option.thread": "thread",
    "slash.option.scope": "bereich",
    "slash.option.user": "mitglied",
    "slash.describe.jokers": "Joker im Spiel (Standard {default})",
    "slash.describe.opening": (
        "Punkte, die deine ersten Kombinationen zusammen erreichen müssen (Standard {default})"
    ),
    "slash.describe.scoring": "Wie eine Runde gezählt wird (Standard: Ausgelegtes minus Handkarten)",
    "slash.describe.hand_romme": (
        "Wer in einem Zug aus der vollen Hand ausmacht, verdoppelt die Handpunkte der anderen (Standard aus)"
    ),
    "slash.describe.discard_to_go_out": (
        "Die letzte Karte muss zum Ausmachen abgeworfen werden (Standard aus)"
    ),
    "slash.describe.rounds": "Runden der Partie (Standard: eine pro Spieler, jeder gibt einmal)",
    "slash.describe.computers": "Computerspieler, die gleich Platz nehmen (Standard 0)",
    "slash.describe.computer_level": (
        "Wie stark die Computer spielen, auch die später hinzugefügten (Standard mittel)"
    ),
    "slash.describe.turn_timeout": (
        "Sekunden für einen Zug, bevor der Computer ihn spielt (Standard: die Einstellung des Bots)"
    ),
    "slash.describe.language": "Die Sprache des Tisches (Standard: die des Servers, sonst Englisch)",
    "slash.describe.thread": "In einem eigenen Thread spielen, von diesem Kanal aus eröffnet (Standard: aus)",
    "slash.describe.scope": "Was gezeigt wird (Standard: die Partie in diesem Kanal)",
    "slash.describe.user": "Stattdessen die Bilanz dieses Mitglieds auf dem Server zeigen",
    "slash.choice.jokers": "{count} Joker",
    "slash.choice.scoring_melds": "Ausgelegtes minus Handkarten (Standard)",
    "slash.choice.scoring_penalty": "Strafpunkte: nur die Handkarten zählen, als Minuspunkte",
    "slash.choice.level_easy": "Leicht: macht Anfängerfehler",
    "slash.choice.level_normal": "Mittel",
    "slash.choice.level_hard": "Schwer: spielt wie ein alter Hase",
    "slash.choice.scope_channel": "Die Partie in diesem Kanal, Runde für Runde",
    "slash.choice.scope_server": "Die Bestenliste des Servers",
    "slash.history": "Die letzten beendeten Partien auf diesem Server, jede mit ihrem Replay",
    "slash.replay": "Eine beendete Partie noch einmal ansehen, Zug für Zug",
    "slash.option.member": "mitglied",
    "slash.describe.member": "Nur die Partien, die dieses Mitglied gespielt hat",
    "slash.option.game": "partie",
    "slash.describe.game": "Die Partie, die du ansehen willst (ihre Nummer)",
    "slash.settings": "Die Vorgaben dieses Servers für neue Partien (Server verwalten oder Spielleitung)",
    "slash.preferences": (
        "Deine Einstellungen auf jedem Server: Karten als Text, Sortierung, Sprache, Erwähnungen"
    ),
    "slash.help": "So wird gespielt: ein Zug Schritt für Schritt und alle Befehle",
    "slash.profile": "Wertung, Platz und Statistik eines Mitglieds auf diesem Server",
    "slash.season": "Eine neue Saison der Wertungen auf diesem Server beginnen (Server verwalten)",
    "slash.describe.profile_member": "Wessen Profil gezeigt wird (Standard: deins)",
    "slash.option.season": "saison",
    "slash.describe.season": "Den Endstand dieser Saison zeigen (ihre Nummer)",
}
