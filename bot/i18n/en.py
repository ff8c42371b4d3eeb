"""English messages. Keys are stable ids; values use ``str.format`` fields.

Error keys are ``error.<code>`` for every ``IllegalMove`` code of the engine and every ``TableError``
code of the table service. Rule ids (R1-R22) appear only in the ``rules.*`` texts of ``/romme rules``:
elsewhere a player could not look them up, so each refusal says its rule in words.

The entries are ordered by screen (the lobby, the table, the hand panel, the round and match end,
history, scores, ratings, settings, help, refusals, slash commands), in the same order in ``de.py``
and ``id.py``, so that a text and its translations are found in the same place.
"""

from __future__ import annotations

from bot.i18n.glossary import Term

GLOSSARY: dict[str, Term] = {
    # The ideas the catalogs must name with one word each. Here the English term says which entries
    # speak of the idea (those whose English matches it); de.py and id.py give their own word for it.
    "opening": Term(r"\bopening\b"),
    "meld": Term(r"\bmelds?\b"),
    "run": Term(r"\bruns?\b"),
    "lay_off": Term(r"\blay(?:s|ing)? off\b|\blaid off\b"),
    "went_out": Term(r"\b(?:go|goes|going|went) out\b"),
    "leave": Term(r"\bleave\b|\bleft\b|\bleaver\b"),
    "scoring": Term(r"\bscoring\b|\bhow a round is scored\b"),
    "rating": Term(r"\bratings?\b|\b(?:un)?rated\b"),
    "replay": Term(r"\breplays?\b"),
    "match": Term(r"\bmatch(?:es)?\b|\bgame \{\}"),
    "round": Term(r"\brounds?\b"),
    "lobby": Term(r"\blobb(?:y|ies)\b"),
    "host": Term(r"\bhost\b"),
    "game_master": Term(r"\bgame master\b"),
    "settings": Term(r"\bsettings\b"),
    "preferences": Term(r"\bpreferences\b"),
    "panel": Term(r"\bpanel\b"),
    "text_cards": Term(r"\bas text\b"),
    "sort": Term(r"\bsort(?:ed)?\b"),
    "hand": Term(r"\bhand\b"),
    "button": Term(r"\bbuttons?\b"),
    "seat": Term(r"\bseats?\b"),
}
"""One term per idea (see :mod:`bot.i18n.glossary`); ``tests/i18n/test_glossary.py`` checks it."""

MESSAGES: dict[str, str] = {
    # --- words every screen uses: cards, melds, seats, levels, lists, numbers, languages ---
    "cards.none": "—",
    "meld.line": "`{meld_id}` {owner}: {cards} ({points})",
    "meld.pending_line": "{cards} ({points})",
    "meld.more": "… and {count} more melds",
    "meld.more.one": "… and 1 more meld",
    "seat.tag.away": "away",
    "seat.tag.left": "left",
    "seat.tag.sits_out": "sits out the tie-break",
    "seat.tag.level.easy": "easy",
    "seat.tag.level.normal": "normal",
    "seat.tag.level.hard": "hard",
    "seat.opened": "opened",
    "seat.not_opened": "not opened",
    "seat.cards": "{count} cards",
    "seat.card": "1 card",
    "seat.points": "{points} points",
    "seat.points.one": "{points} point",
    "seat.computer": "Computer {number}",
    "level.easy": "easy",
    "level.normal": "normal",
    "level.hard": "hard",
    "list.pair": "{first} and {last}",
    "list.separator": ", ",
    "number.group": ",",
    "number.group.rating": ",",
    "number.percent": "{percent}%",
    "language.name": "English",
    "language.en": "English",
    "language.de": "Deutsch",
    "language.id": "Bahasa Indonesia",
    # --- the lobby: its message and buttons, the house rules it shows, /romme join and leave ---
    "lobby.title": "Rommé — a new game",
    "lobby.description": (
        "Host: {host}. Click **Join** to take a seat. The host clicks **Start** with 2 to 6 seats."
    ),
    "lobby.seats": "Seats ({count}/{max})",
    "lobby.no_seats": "Nobody yet.",
    "lobby.house_rules": "House rules",
    "lobby.cancelled": "This game was cancelled.",
    "lobby.expired": (
        "This lobby closed by itself: nobody started the game in time. Anyone can open a new table "
        "here with /romme start."
    ),
    "lobby.started": "This game has started: the table is below.",
    "lobby.footer": "Game {game_id}",
    "lobby.language": "Language: {language}",
    "lobby.server_house_rules": "This server's house rules",
    "button.join": "Join",
    "button.leave": "Leave",
    "button.add_computer": "Add computer",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "rules.jokers": "Jokers: {count}",
    "rules.opening": "Opening: {points} points",
    "rules.scoring.melds": "Scoring: melds minus hand",
    "rules.scoring.penalty": "Scoring: penalty, hand points only",
    "rules.hand_romme.on": "Hand-Rommé doubles the others' hand points",
    "rules.hand_romme.off": "No Hand-Rommé bonus",
    "rules.discard_to_go_out.on": "The last card must be discarded to go out",
    "rules.discard_to_go_out.off": "Going out by melding or laying off the last card is allowed",
    "rules.rounds.per_seat": "Rounds: one per seat",
    "rules.rounds.fixed": "Rounds: {count}",
    "rules.turn_timeout": "Turn timer: {seconds} s",
    "rules.computers": "Computer players: {count}",
    "command.joined": "You took a seat in game {game_id}.",
    "command.left": "You left game {game_id}.",
    "command.left.running": "You left game {game_id}: the computer plays your seat now.",
    "command.thread_opened": "{host} opened a Rommé table: {thread}",
    # --- the table: its message, seats and piles, the last move in words ---
    "table.title": "Rommé — round {round} of {rounds}",
    "table.title.tiebreak": "Rommé — tie-break round {round} (after {rounds} rounds)",
    "table.title.tiebreak.one": "Rommé — tie-break round {round} (after {rounds} round)",
    "table.dealer": "Dealer: {name}",
    "table.turn.draw": "To play: {who} — draw a card",
    "table.turn.play": "To play: {who} — meld, lay off or discard",
    "table.turn.deadline": "Time runs out {when}",
    "table.round_over": "The round is over.",
    "table.seats": "Seats",
    "table.seat_line": "{marker}**{name}** — {cards} · {opened} · {total}{tags}",
    "table.piles": "Piles",
    "table.stock": "Stock: {count} cards",
    "table.stock.one": "Stock: 1 card",
    "table.discard_top": "Discard pile: {card} on top ({cards})",
    "table.discard_empty": "Discard pile: empty",
    "table.reshuffles": "Reshuffles: {count} of 3",
    "table.melds": "Melds on the table",
    "table.melds.more": "Melds on the table (continued)",
    "table.no_melds": "None yet.",
    "table.last_move": "Last move",
    "table.footer": "Game {game_id} · click My hand to see your cards",
    "table.content.turn": "{mention}, your turn.",
    "table.moved": "Round {round} was played here; the table of the next round is below.",
    "table.footer.over": "Game {game_id} · the match is over: the results are below",
    "table.results": "**The match is over:** [see the results]({url})",
    "event.draw.stock": "drew from the stock",
    "event.draw.discard": "took {card}",
    "event.meld": "melded {cards}",
    "event.meld.proposed": "proposed a meld toward the opening",
    "event.opened": "opened with {cards} ({points} points)",
    "event.opened.no_points": "opened with {cards}",
    "event.lay_off": "laid off {cards} on {meld_id}",
    "event.swap_joker": "swapped {card} for the joker in {meld_id} and melded {cards}",
    "event.discard": "discarded {card}",
    "event.take_back": "took back the proposed melds",
    "event.timeout": "ran out of time, so the computer played for them",
    "event.away": "is away: the computer plays for them",
    "event.left": "left the game: the computer plays for them",
    "event.back": "is back",
    "event.by_computer": " (played by the computer)",
    "event.round_over.out": "{name} went out: the round is over.",
    "event.round_over.nobody": "The stock ran out: the round is over and nobody went out.",
    "event.sentence": "{name} {actions}{note}.",
    "button.hand": "My hand",
    "thread.name": "Rommé, {host}'s table",
    "game.exists.jump": "Its table: {link}",
    # --- the hand panel: its buttons (labels as the product spec writes them), selects and the hint ---
    "panel.title": "Your hand — {count} cards",
    "panel.title.one": "Your hand — 1 card",
    "panel.sorted.suit": "Sorted by suit",
    "panel.sorted.rank": "Sorted by rank",
    "panel.empty_hand": "Your hand is empty.",
    "panel.selected": "Selected: {cards}",
    "panel.nothing_selected": "Select cards below, then choose a move.",
    "panel.turn.draw": "Your turn: draw a card.",
    "panel.turn.play": "Your turn: meld, lay off, swap a joker, or discard to end your turn.",
    "panel.turn.waiting": "Not your turn yet: this panel updates by itself when your turn comes.",
    "panel.turn.deadline": "Time runs out {when}.",
    "panel.round_over": "The round is over.",
    "panel.match_over": "The match is over.",
    "panel.round_score": "You scored {score} this round; your total is {total}.",
    "panel.drawn": "➕ You drew **{card}**.",
    "panel.table": "On the table",
    "panel.meld_short": "`{meld_id}` {cards}",
    "panel.moved": "This panel moved: your hand is in the newest panel below.",
    "panel.sitting_out": "You sit out this tie-break round.",
    "panel.pending": "Proposed melds: {points} of {needed} points toward the opening",
    "panel.pending.one": "Proposed melds: {points} of {needed} point toward the opening",
    "panel.opened": "You have opened: you may lay off and swap jokers.",
    "panel.opening_needed": "Opening: your first melds must reach {points} points.",
    "panel.taken": "You took {card} from the discard pile: you may not discard it this turn.",
    "panel.target.lay_off": "Choose the meld to lay {cards} off on.",
    "panel.target.swap_joker": (
        "Choose the joker to swap: the other selected cards form a new meld with it."
    ),
    "panel.swap.one": (
        "{card} can take the joker's place in {melds}. Now select {card} together with the cards "
        "that make a new meld with the freed joker (two or more), then click Swap joker again."
    ),
    "panel.swapped": "You put {card} in for the joker in {meld_id} and melded the joker with {cards}.",
    "panel.footer": "Only you see this panel. Game {game_id}",
    "button.draw": "Draw",
    "button.take": "Take discard",
    "button.sort": "Sort",
    "button.meld": "Meld",
    "button.lay_off": "Lay off",
    "button.swap_joker": "Swap joker",
    "button.discard": "Discard",
    "button.take_back": "Take back",
    "button.hint": "Hint",
    "select.cards": "Select cards from your hand",
    "select.cards.more": "Only the first {count} cards can be selected here",
    "select.target.lay_off": "Lay off on which meld?",
    "select.target.swap_joker": "Swap a joker out of which meld?",
    "select.target.none": "No meld on the table fits",
    "select.option.meld": "{meld_id} · {owner}: {cards}",
    "select.option.meld_end.low": "{meld_id} · {owner}: joker at the low end",
    "select.option.meld_end.high": "{meld_id} · {owner}: joker at the high end",
    "select.option.swap_joker": "{meld_id} · {owner}: put {card} in for the joker",
    "select.discard": "Discard a card to end your turn",
    "hint.title": "Hint",
    "hint.best": "Best melds in your hand ({points} points)",
    "hint.none": "No meld in your hand yet.",
    "hint.opening_reached": "Your melds make {points} points: enough for your opening, which needs {needed}.",
    "hint.opening_short": "Not enough for your opening yet: {points} of {needed} points.",
    "hint.opening_short.one": "Not enough for your opening yet: {points} of {needed} point.",
    "hint.opened": "You have opened: every meld counts.",
    # --- stopping a game (/romme stop) ---
    "stop.confirm": "Stop this game? The results so far are kept.",
    "stop.done": "The game was stopped.",
    "stop.confirm.leaver": (
        "You sit at this table: stopping ranks you last, below everyone who stays, and the match is "
        "rated on the standings so far."
    ),
    "stop.confirm.standings": "The match will be rated on the standings so far.",
    "stop.confirm.unrated": "No round has ended yet: the match will not be rated.",
    "button.stop_yes": "Stop the game",
    # --- the round end ---
    "round_end.title": "Round {round} is over",
    "round_end.title.tiebreak": "Tie-break round {round} is over",
    "round_end.out": "{name} went out.",
    "round_end.out.you": "You went out.",
    "round_end.hand_romme": "{name} went out in one go: Hand-Rommé!",
    "round_end.hand_romme.you": "You went out in one go: Hand-Rommé!",
    "round_end.nobody_out": "The stock ran out: nobody went out.",
    "round_end.seat_line": "**{name}**: melded {melded} · in hand {in_hand} · round {score} · total {total}",
    "round_end.scores": "Scores",
    "round_end.hand_left": "{name}: cards left in hand",
    "round_end.next": "The next round starts {when}, or click **Next round**.",
    "round_end.next_now": "Click **Next round** to deal the next round.",
    "round_end.started": "Round {round} has started: the table is below.",
    "button.next_round": "Next round",
    # --- the match end, and whether and how it is rated ---
    "match_end.title": "The match is over",
    "match_end.winner": "🏆 {name} wins with {points} points.",
    "match_end.winner.one": "🏆 {name} wins with 1 point.",
    "match_end.winner.you": "🏆 You win with {points} points.",
    "match_end.winner.you.one": "🏆 You win with 1 point.",
    "match_end.cancelled": "The game was stopped; the results so far are kept.",
    "match_end.idle": (
        "The game ended by itself: nobody made a move for a long time. The results so far are kept."
    ),
    "match_end.no_winner": "No winner.",
    "match_end.standings": "Final standings",
    "match_end.standing_line": "{place}. **{name}** — {points} points",
    "match_end.standing_line.one": "{place}. **{name}** — {points} point",
    "match_end.tiebreaks": "Tie-break rounds played: {count}",
    "match_end.ratings": "Ratings",
    "match_end.rated.leaver": (
        "Rated on the standings after {count} rounds; {name} stopped the match and is ranked last."
    ),
    "match_end.rated.leaver.one": (
        "Rated on the standings after 1 round; {name} stopped the match and is ranked last."
    ),
    "match_end.rated.leaver_no_round": (
        "Rated before any round had ended: {name} stopped the match and is ranked last, below "
        "everyone who stayed."
    ),
    "match_end.rated.standings": "Rated on the standings after {count} rounds.",
    "match_end.rated.standings.one": "Rated on the standings after 1 round.",
    "match_end.unrated.no_round": "Not rated: no round had ended.",
    "button.play_again": "Play again",
    # --- match history and replays ---
    "history.title": "Last matches on this server",
    "history.title.member": "Last matches of {name}",
    "history.empty": "No finished match here yet.",
    "history.line": "**{number}.** {when} · game {game_id} ({state})\n{places}\nWent out: {outs}",
    "history.place": "{place}. {name} ({points})",
    "history.nobody": "nobody",
    "history.finished": "played to the end",
    "history.stopped": "stopped",
    "history.button": "Replay {number}",
    "history.more": "… and {count} more matches",
    "history.more.one": "… and 1 more match",
    "replay.title": "Replay of game {game_id} · round {round} of {rounds}",
    "replay.title.tiebreak": "Replay of game {game_id} · tie-break round {round}",
    "replay.step": "Step {step} of {steps}",
    "replay.deal": "{name} dealt the cards; the upcard is {card}.",
    "replay.move": "{name} made a move.",
    "replay.take_back": "{name} took the proposed melds back.",
    "replay.hands": "Seats and hands",
    "replay.seat": "{marker}**{name}** · {total} points · {count} cards\n{cards}",
    "replay.seat.one": "{marker}**{name}** · {total} points · 1 card\n{cards}",
    "replay.seat_out": "**{name}** · {total} points · sits this round out",
    "replay.proposed": "Proposed: {cards}",
    "replay.discard": "Discard pile: {card} on top ({count} cards)",
    "replay.discard.one": "Discard pile: {card} on top (1 card)",
    "replay.meld": "{meld_id} ({owner}): {cards}",
    "replay.footer": "Game {game_id} · only you see this replay",
    "replay.next_turn": "Next turn",
    "replay.round": "Round {round}",
    "replay.round_select": "Jump to a round",
    "replay.download": "Download",
    "replay.export_ready": "Game {game_id} as a JSON file; its layout is in the bot's docs (match-format).",
    "replay.choice": "Game {game_id} · {when} · {players}",
    # --- scores, the leaderboard and records ---
    "scores.title": "Standings — game {game_id}",
    "scores.total": "Total",
    "scores.no_rounds": "No round has ended yet.",
    "scores.row.round": "R{number}",
    "scores.row.tiebreak": "T{number}",
    "leaderboard.title": "Leaderboard",
    "leaderboard.empty": "Nobody has finished a match on this server yet.",
    "leaderboard.line": "{place}. {player} — {matches} · {wins} · {points} points · best round {best}",
    "leaderboard.line.one": "{place}. {player} — {matches} · {wins} · {points} point · best round {best}",
    "count.matches": "{count} matches",
    "count.matches.one": "{count} match",
    "count.wins": "{count} wins",
    "count.wins.one": "{count} win",
    "record.title": "Player record",
    "record.none": "{player} has not finished a match on this server yet.",
    "record.body": ("{player}\nMatches: {matches}\nWins: {wins}\nPoints: {points}\nBest round: {best}"),
    "record.no_best": "—",
    # --- ratings, seasons, the board and profiles ---
    "rating.change": "{delta} → {rating}",
    "rating.provisional": "provisional",
    "rating.line": "**{name}**: {change}",
    "rating.line.provisional": "**{name}**: {change} ({provisional})",
    "board.title": "Season {season} leaderboard",
    "board.title.past": "Season {season}: final standings",
    "board.since": "Since {start}",
    "board.period": "From {start} to {end}",
    "board.line": "{rank}. {player} — {rating} · {matches} · {wins}",
    "board.line.provisional": "{rank}. {player} — {rating} ({provisional}) · {matches} · {wins}",
    "board.empty": "Nobody has a rating in this season yet: finish a match to get one.",
    "board.page": "Page {page} of {pages} · {size} rated",
    "board.elsewhere": "This leaderboard belongs to another server.",
    "button.board.previous": "Previous",
    "button.board.next": "Next",
    "season.unknown": "This server has no season {season} yet.",
    "season.not_allowed": "Only a member with Manage Server can start a new season.",
    "season.started": "Season {season} has begun on this server.",
    "profile.title": "Profile of {name}",
    "profile.none": "{player} has no rated match on this server yet.",
    "profile.rating": "Rating (season {season})",
    "profile.rating.value": "**{rating}** · place {rank} of {size}",
    "profile.rating.provisional": "**{rating}** ({provisional}) · place {rank} of {size}",
    "profile.rating.none": "No match in this season yet",
    "profile.stats": "Statistics",
    "profile.body": (
        "Matches: {matches}\nWins: {wins} ({rate})\nAverage place: {place}\n"
        "Went out in {out} of the rounds\nBest round: {best_round}\nBest match: {best_match}\n"
        "Hand-Rommé: {hand}\nComputer levels beaten: {levels}"
    ),
    "profile.chart": "The rating over the last {count} matches",
    "profile.chart.one": "The rating after the first match",
    "profile.nothing": "—",
    # --- server settings ---
    "settings.title": "Server settings",
    "settings.description": (
        "The defaults of every new game on this server. The options of /romme start still change "
        "them for one game."
    ),
    "settings.house_rules": "House rules",
    "settings.games": "New games",
    "settings.places": "Channels and game masters",
    "settings.on": "on",
    "settings.off": "off",
    "settings.language.server": "the server's language",
    "settings.line.language": "Language: {language}",
    "settings.line.turn_timeout": "Turn timer: {seconds} s",
    "settings.line.lobby_timeout": "An unstarted lobby closes after {minutes} min",
    "settings.line.computer_level": "Computer level: {level}",
    "settings.line.threads": "Each game in a thread of its own: {value}",
    "settings.line.channels": "Games may start in: {channels}",
    "settings.line.role": "Game-master role: {role}",
    "settings.channels.all": "every channel",
    "settings.role.none": "none (Manage Server only)",
    "settings.level.easy": "easy",
    "settings.level.normal": "normal",
    "settings.level.hard": "hard",
    "settings.pick": "Change a house rule, the language, the level…",
    "settings.channels.pick": "Channels where games may start (none chosen: all)",
    "settings.role.pick": "Game-master role, chosen with Manage Server (may stop any game)",
    "settings.numbers": "Numbers…",
    "settings.reset": "Reset all",
    "settings.reset.done": "every default of the bot again",
    "settings.reset.kept_role": (
        "every default of the bot again, except the game-master role (only Manage Server changes it)"
    ),
    "settings.numbers.title": "Server settings: numbers",
    "settings.input.opening": "Opening points ({low}-{high})",
    "settings.input.opening.hint": "40",
    "settings.input.rounds": "Rounds ({low}-{high})",
    "settings.input.rounds.hint": "empty: one per seat",
    "settings.input.turn_timeout": "Turn timer in seconds ({low}-{high})",
    "settings.input.turn_timeout.hint": "empty: the bot's",
    "settings.input.lobby_timeout": "Lobby closes after minutes ({low}-{high})",
    "settings.input.lobby_timeout.hint": "empty: the bot's",
    "settings.name.language": "language",
    "settings.name.jokers": "jokers",
    "settings.name.opening": "opening",
    "settings.name.scoring": "scoring",
    "settings.name.hand_romme": "Hand-Rommé",
    "settings.name.discard_to_go_out": "discard to go out",
    "settings.name.rounds": "rounds",
    "settings.name.turn_timeout": "turn timer",
    "settings.name.lobby_timeout": "lobby timeout",
    "settings.name.computer_level": "computer level",
    "settings.name.threads": "games in threads",
    "settings.name.channels": "channels",
    "settings.name.game_master_role": "game-master role",
    "settings.name.cards": "cards",
    "settings.name.sort": "sort",
    "settings.name.mention": "mention",
    "settings.name.?": "setting",
    "settings.saved": "✅ Saved: {what}",
    "settings.ratings": "Ratings",
    "settings.line.season_length": "Seasons: {length}",
    "settings.season.monthly": "a calendar month (UTC) each",
    "settings.season.manual": "only started by hand (/romme season)",
    "settings.season.days": "{count} days each",
    "settings.season.days.one": "1 day each",
    "settings.input.season_length": "Season length in days ({low}-{high})",
    "settings.input.season_length.hint": "empty: as chosen in the list",
    "settings.name.season_length": "season length",
    # --- preferences ---
    "preferences.title": "Your preferences",
    "preferences.description": "Your own choices, on every server.",
    "preferences.cards.faces": "Cards as pictures",
    "preferences.cards.text": "Cards as text (read aloud by screen readers)",
    "preferences.sort.suit": "Hand sorted by suit",
    "preferences.sort.rank": "Hand sorted by rank",
    "preferences.language": "Private answers in: {language}",
    "preferences.language.discord": "your device's language",
    "preferences.mention.on": "Mention me when it is my turn",
    "preferences.mention.off": "Do not mention me on my turn",
    "preferences.pick": "Change a preference…",
    "preferences.name.cards": "cards",
    "preferences.name.sort": "sort",
    "preferences.name.language": "language",
    "preferences.name.mention": "mention",
    # --- help and the rules in short ---
    "help.title": "Rommé: how to play",
    "help.about": (
        "Rommé is German rummy for 2 to 6 players, with two decks and jokers.\n"
        "Build sets (same rank) and runs (same suit, in a row) from your hand and lay them down.\n"
        "The first to get rid of every card ends the round; the others count what is left in hand."
    ),
    "help.turn": "A turn in five steps",
    "help.turn.steps": (
        "1. Press **{hand}** to see your cards, privately.\n"
        "2. **{draw}** a card from the stock, or **{take}**.\n"
        "3. Select cards and press **{meld}** (your first melds must reach the opening points).\n"
        "4. **{lay_off}** cards onto melds already on the table.\n"
        "5. **{discard}** one card: the next player's turn begins."
    ),
    "help.commands": "Commands",
    "help.commands.list": (
        "/romme start: open a table · /romme join, /romme leave: take or leave a seat\n"
        "/romme hand: your hand · /romme score: the standings · /romme rules: the rules in short\n"
        "/romme stop: end the game · /romme preferences: your own choices · /romme settings: the "
        "server's defaults · /romme help: this page\n"
        "/romme history, /romme replay: the last matches, watched again move by move · "
        "/romme profile: a member's rating and record · /romme season: a new season"
    ),
    "help.rule_book": "The rule book",
    "help.tip": (
        "💡 Tip: select cards in the list below, then press a button; /romme help explains a turn "
        "step by step."
    ),
    "help.early_end.title": "Stopping a match",
    "help.early_end": (
        "Whoever sits at the table and stops the match (/romme stop) is ranked last, below everyone "
        "who stayed, and the match is rated on the standings so far, even in its first round. "
        "Stopped by a member not seated (Manage Server or the game-master role), or ended by itself "
        "because nobody played, it is rated on the standings so far once a round has ended, and not "
        "at all before."
    ),
    "help.seasons.title": "Seasons",
    "help.seasons": (
        "Seasons: ratings run by season, one calendar month (UTC) each unless the server's settings "
        "(/romme settings) choose a number of days or only by hand; a member with Manage Server may "
        "start the next one at any time with /romme season. A new season empties the leaderboard and "
        "makes every rating less certain: it is shown lower and is provisional for 5 matches. "
        "The skill behind it carries over, and so do wins, points, profiles and every past "
        "season's final standings (`/romme score season:`)."
    ),
    "rules.title": "Rommé — the rules in short",
    "rules.summary": (
        "Two decks and jokers. Each player gets 13 cards; the rest is the stock, its top card starts "
        "the discard pile (R1, R5).\n"
        "**Your turn:** draw from the stock or take the top discard; then meld, lay off and swap "
        "jokers as you like; then discard one card (R11). A card taken from the discard pile may not "
        "be discarded again in the same turn (R12).\n"
        "**Melds:** a run is 3+ cards of one suit in a row (A-2-3 or Q-K-A, never K-A-2); a set is "
        "3-4 cards of one rank in different suits. A joker stands for any card; a meld with two or "
        "more jokers needs at least two natural cards (R7-R10).\n"
        "**Opening:** your first melds must be worth {opening} points together; until then they are "
        "only proposed and you can take them back (R13). After opening you may lay off on any meld "
        "and swap a joker for the card it stands for (R14-R16).\n"
        "**Going out:** the round ends when a hand is empty (R17). **Points:** 2-10 face value, J Q "
        "K 10, A 1 or 11, joker 20 in the hand (R2)."
    ),
    "rules.book": (
        "Every rule with its id (R1-R22) is in the rule book, docs/rules.md in the bot's source code."
    ),
    "rules.house_rules": "This game's house rules",
    "rules.default_house_rules": "Default house rules",
    "rules.book.link": "Every rule with its id (R1-R22) is in [the rule book]({url}).",
    # --- refusals and errors (each says what was wrong) ---
    "refusal": "⚠️ {text}",
    "error.unknown": "That move is not allowed.",
    "error.unexpected": "Sorry, something went wrong. The game is unchanged; please try again.",
    "error.bad_component": "This button is not valid any more.",
    "error.click.other_server": "This button belongs to a game on another server.",
    "error.click.other_channel": "This button belongs to a game in another channel.",
    "error.click.cannot_view": "You cannot see the channel of this game.",
    "error.click.other_message": "This button is not on a message of its game.",
    # engine: turn order and phases (each entry names its rule)
    "error.turn.not_your_turn": "It is not your turn.",
    "error.turn.must_draw": "Draw a card first.",
    "error.turn.already_drawn": "You have already drawn a card this turn.",
    "error.turn.sitting_out": "You sit out this tie-break round.",
    "error.round.over": "The round is over.",
    "error.card.not_in_hand": "That card is not in your hand.",
    "error.discard.taken_card": "You may not discard the card you took from the discard pile this turn.",
    "error.discard.must_keep_last": "You must keep a card to discard: you cannot use your last card here.",
    "error.opening.not_opened": "Open first: only a seat that has opened may lay off or swap jokers.",
    # engine: melds (R7-R10)
    "error.meld.too_short": "A meld needs at least three cards.",
    "error.meld.mixed_suits": "A run must be of one suit.",
    "error.meld.repeated_suit": "A set may not have two cards of the same suit.",
    "error.meld.not_consecutive": "The cards of a run must follow each other.",
    "error.meld.around_corner": "A run cannot go around the corner (K-A-2).",
    "error.meld.too_many_jokers": "A meld with two or more jokers needs at least two natural cards.",
    "error.meld.jokers_only": "A meld of jokers alone is not allowed.",
    "error.meld.too_long": "That meld would be too long.",
    "error.meld.mixed_ranks": "A set must be of one rank.",
    "error.meld.repeated_rank": "A run may not have the same rank twice.",
    "error.meld.invalid": "Those cards do not make a meld.",
    "error.swap.not_replaceable": "That card cannot take the place of a joker in this meld.",
    "error.swap.no_card": "Select the card that goes in the joker's place.",
    "error.layoff.no_cards": "Select at least one card to lay off.",
    "error.lay_off.no_cards": "Select at least one card to lay off.",
    "error.layoff.no_room": "Those cards do not fit on that meld.",
    "error.layoff.bad_end": "A joker goes to the low or the high end of a run.",
    "error.layoff.joker_holds_place": "A joker holds that place: put the card in with Swap joker instead.",
    "error.table.no_such_meld": "There is no such meld on the table.",
    "error.take_back.nothing_pending": "You have no proposed meld to take back.",
    "error.opening.no_card_left": "That would leave you no card to discard before your opening is complete.",
    "error.draw.discard_empty": "The discard pile is empty.",
    "error.draw.no_such_pile": "Draw from the stock or from the discard pile.",
    "error.discard.no_card": "Select the card to discard.",
    "error.match.over": "The match is over.",
    "error.seat.unknown": "There is no such seat.",
    "error.seats.count": "A game needs 2 to 6 seats.",
    # table service
    "error.game.none_here": "There is no game in this channel. Start one with /romme start.",
    "error.game.exists": "This channel already has a game (game {game_id}).",
    "error.thread.inside": "This is a thread already: start the game here without thread.",
    "error.thread.not_here": "A game in a thread of its own starts from a text channel.",
    "error.thread.cannot_open": "I could not open a thread here, so no game was started.",
    "error.bot_permission": (
        "I cannot run a table here: I need these permissions in this channel: {permissions}."
    ),
    "permission.view_channel": "View Channel",
    "permission.send_messages": "Send Messages",
    "permission.embed_links": "Embed Links",
    "permission.read_message_history": "Read Message History",
    "permission.create_public_threads": "Create Public Threads",
    "permission.send_messages_in_threads": "Send Messages in Threads",
    "error.game.not_running": "This game is not running.",
    "error.game.not_finished": "This game is not finished yet.",
    "error.game.changed": (
        "This game was changed elsewhere meanwhile; it is up to date again. Please try again."
    ),
    "error.lobby.closed": "The lobby is closed: this game has already begun or ended.",
    "error.round.not_over": "The round is not over yet.",
    "error.seat.not_seated": "You have no seat in this game.",
    "error.seat.already_seated": "You already have a seat in this game.",
    "error.lobby.full": "The table is full (6 seats).",
    "error.lobby.not_host": "Only the host can do that.",
    "error.lobby.host_limit": (
        "You already host {seats} open lobbies on this server: start or cancel one of them first."
    ),
    "error.lobby.too_few": "A game needs at least 2 seats.",
    "error.turn.not_yours": "It is not your turn.",
    "error.panel.stale": "This panel is out of date; here is a fresh one.",
    "error.stop.not_allowed": "Only the host or a member with Manage Server can stop the game.",
    # history, settings, saves and forms
    "error.replay.not_found": "There is no finished match {game_id} on this server that you can see.",
    "error.replay.running": "Match {game_id} is still being played: its replay opens once it is over.",
    "error.replay.none": (
        "Match {game_id} has no replay: its moves are no longer kept, or it was played before replays were."
    ),
    "error.settings.not_allowed": (
        "Only a member with Manage Server or the game-master role can change these settings."
    ),
    "error.settings.not_a_number": "{setting}: “{value}” is not a whole number. Nothing was changed.",
    "error.settings.out_of_range": (
        "{setting}: {value} is out of range, it must be from {low} to {high}. Nothing was changed."
    ),
    "error.settings.bad_value": "{setting}: that value is not one of the choices. Nothing was changed.",
    "error.settings.other_server": "This panel belongs to another server. Nothing was changed.",
    "error.settings.not_yours": (
        "This panel belongs to another member. Open your own with /romme preferences."
    ),
    "error.settings.channel_elsewhere": "{channel} is not a channel of this server. Nothing was changed.",
    "error.settings.role_gone": "That role no longer exists on this server. Nothing was changed.",
    "error.settings.role_needs_manage_server": (
        "Only a member with Manage Server can choose or clear the game-master role. Nothing was changed."
    ),
    "error.settings.role_everyone": (
        "`@everyone` cannot be the game-master role: every member would run this server's games. "
        "Nothing was changed."
    ),
    "error.settings.role_managed": (
        "{role} belongs to a bot or an integration and is given out automatically, so it cannot be "
        "the game-master role. Nothing was changed."
    ),
    "error.settings.role_above_bot": (
        "{role} is not below the bot's highest role, so it cannot be the game-master role. Choose a "
        "lower role. Nothing was changed."
    ),
    "error.start.channel_not_allowed": "Games cannot be started in this channel. Start one in: {channels}",
    "error.game.moved": "This table moved to another process of the bot. Please try again.",
    "error.bad_form": "This form is not valid any more. Nothing was changed.",
    "error.replay.no_round": "This match has no such round.",
    "error.command.bad_option": "That is not a value this command takes. Nothing was changed.",
    # --- the slash commands as Discord lists them (the command names stay /romme …) ---
    "slash.group": "Play Rommé (German Rummy) in this channel",
    "slash.start": "Open a table in this channel and wait for players",
    "slash.join": "Take a seat at the table in this channel",
    "slash.leave": "Leave the table; in a running game a computer takes your seat",
    "slash.hand": "Show your hand, privately, with the buttons to play it",
    "slash.score": "Standings of this channel's game, the server, or one player",
    "slash.rules": "The rules in short, and this table's house rules",
    "slash.stop": "End the game in this channel (host or Manage Server)",
    "slash.option.jokers": "jokers",
    "slash.option.opening": "opening",
    "slash.option.scoring": "scoring",
    "slash.option.hand_romme": "hand_romme",
    "slash.option.discard_to_go_out": "discard_to_go_out",
    "slash.option.rounds": "rounds",
    "slash.option.computers": "computers",
    "slash.option.computer_level": "computer_level",
    "slash.option.turn_timeout": "turn_timeout",
    "slash.option.language": "language",
    "slash.option.thread": "thread",
    "slash.option.scope": "scope",
    "slash.option.user": "user",
    "slash.describe.jokers": "Jokers in the deck (default {default})",
    "slash.describe.opening": "Points your first melds must reach together (default {default})",
    "slash.describe.scoring": "How a round is scored (default: melds minus hand)",
    "slash.describe.hand_romme": (
        "Going out in one turn from a closed hand doubles the others' hand points (default off)"
    ),
    "slash.describe.discard_to_go_out": "The last card must be discarded to go out (default off)",
    "slash.describe.rounds": "Rounds in the match (default: one per seat, so everyone deals once)",
    "slash.describe.computers": "Computer players to seat at once (default 0)",
    "slash.describe.computer_level": (
        "How well the computer seats play, also those Add computer seats (default normal)"
    ),
    "slash.describe.turn_timeout": (
        "Seconds for a person's turn before the computer plays it (default: the bot's setting)"
    ),
    "slash.describe.language": "The table's language (default: the server's, else English)",
    "slash.describe.thread": "Play in a thread of its own, opened from this channel (default off)",
    "slash.describe.scope": "What to show (default: this channel's game)",
    "slash.describe.user": "Show this member's record on the server instead",
    "slash.choice.jokers": "{count} jokers",
    "slash.choice.scoring_melds": "Melds minus hand (standard)",
    "slash.choice.scoring_penalty": "Penalty: only the hand counts, against you",
    "slash.choice.level_easy": "Easy: makes a beginner's mistakes",
    "slash.choice.level_normal": "Normal",
    "slash.choice.level_hard": "Hard: plays like a club player",
    "slash.choice.scope_channel": "This channel's game, round by round",
    "slash.choice.scope_server": "The server leaderboard",
    "slash.history": "The last finished matches on this server, each with its replay",
    "slash.replay": "Watch a finished match again, move by move",
    "slash.option.member": "member",
    "slash.describe.member": "Only the matches this member played",
    "slash.option.game": "game",
    "slash.describe.game": "The match to watch (its game number)",
    "slash.settings": "This server's defaults for new games (Manage Server or the game-master role)",
    "slash.preferences": "Your own choices on every server: cards as text, sort, language, mentions",
    "slash.help": "How to play, a turn step by step, and the commands",
    "slash.profile": "A member's rating, place and statistics on this server",
    "slash.season": "Start a new season of ratings on this server (Manage Server)",
    "slash.describe.profile_member": "Whose profile to show (default: yours)",
    "slash.option.season": "season",
    "slash.describe.season": "Show the final standings of this season (its number)",
}
