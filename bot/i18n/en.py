"""English messages. Keys are stable ids; values use ``str.format`` fields.

Error keys are ``error.<code>`` for every ``IllegalMove`` code of the engine and every ``TableError``
code of the table service; the rule a refused move breaks is added by ``error.rule``.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # --- buttons and selects (labels exactly as the product spec writes them) ---
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
    "button.stop_yes": "Stop the game",
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
    # --- cards and melds ---
    "cards.none": "—",
    "meld.line": "`{meld_id}` {owner}: {cards} ({points})",
    "meld.pending_line": "{cards} ({points})",
    "meld.more": "… and {count} more melds",
    # --- names and seats ---
    "seat.tag.away": "away",
    "seat.tag.left": "left",
    "seat.tag.sits_out": "sits out the tie-break",
    "seat.opened": "opened",
    "seat.not_opened": "not opened",
    "seat.cards": "{count} cards",
    "seat.card": "1 card",
    "seat.points": "{points} points",
    # --- lobby ---
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
    # --- house rules (lobby and rules summary) ---
    "rules.jokers": "Jokers: {count}",
    "rules.opening": "Opening: {points} points (R13)",
    "rules.scoring.melds": "Scoring: melds minus hand (R20)",
    "rules.scoring.penalty": "Scoring: penalty, hand points only (R21)",
    "rules.hand_romme.on": "Hand-Rommé doubles the others' hand points (R22)",
    "rules.hand_romme.off": "No Hand-Rommé bonus (R22)",
    "rules.discard_to_go_out.on": "The last card must be discarded to go out (R17)",
    "rules.discard_to_go_out.off": "Going out by melding or laying off the last card is allowed (R17)",
    "rules.rounds.per_seat": "Rounds: one per seat (R4)",
    "rules.rounds.fixed": "Rounds: {count}",
    "rules.turn_timeout": "Turn timer: {seconds} s",
    "rules.computers": "Computer players: {count}",
    # --- rules summary ---
    "rules.title": "Rommé — the rules in short",
    "rules.summary": (
        "Two decks and jokers. Each seat gets 13 cards; the rest is the stock, its top card starts the "
        "discard pile (R1, R5).\n"
        "**Your turn:** draw from the stock or take the top discard; then meld, lay off and swap jokers "
        "as you like; then discard one card (R11). A card taken from the discard pile may not be "
        "discarded again in the same turn (R12).\n"
        "**Melds:** a run is 3+ cards of one suit in a row (A-2-3 or Q-K-A, never K-A-2); a set is 3-4 "
        "cards of one rank in different suits. A joker stands for any card; a meld with two or more "
        "jokers needs at least two natural cards (R7-R10).\n"
        "**Opening:** your first melds must be worth {opening} points together; until then they are "
        "only proposed and you can take them back (R13). After opening you may lay off on any meld and "
        "swap a joker for the card it stands for (R14-R16).\n"
        "**Going out:** the round ends when a hand is empty (R17). "
        "**Points:** 2-10 face value, J Q K 10, A 1 or 11, joker 20 in the hand (R2)."
    ),
    "rules.book": "Every rule with its id (R1-R22) is in the rule book, `docs/rules.md` in the bot's source.",
    "rules.house_rules": "This game's house rules",
    "rules.default_house_rules": "Default house rules",
    # --- table ---
    "table.title": "Rommé — round {round} of {rounds}",
    "table.title.tiebreak": "Rommé — tie-break round {round} (after {rounds} rounds)",
    "table.dealer": "Dealer: {name}",
    "table.turn.draw": "To play: {who} — draw a card",
    "table.turn.play": "To play: {who} — meld, lay off or discard",
    "table.turn.deadline": "Time runs out {when}",
    "table.round_over": "The round is over.",
    "table.seats": "Seats",
    "table.seat_line": "{marker}**{name}** — {cards} · {opened} · {total}{tags}",
    "table.piles": "Piles",
    "table.stock": "Stock: {count} cards",
    "table.discard_top": "Discard pile: {card} on top ({cards})",
    "table.discard_empty": "Discard pile: empty",
    "table.reshuffles": "Reshuffles: {count} of 3 (R18)",
    "table.melds": "Melds on the table",
    "table.melds.more": "Melds on the table (continued)",
    "table.no_melds": "None yet.",
    "table.last_move": "Last move",
    "table.footer": "Game {game_id} · click My hand to see your cards",
    "table.content.turn": "{mention}, your turn.",
    "table.moved": "Round {round} was played here; the table of the next round is below.",
    "table.footer.over": "Game {game_id} · the match is over: the results are below",
    # --- the last move in words ---
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
    "event.round_over.nobody": "The stock ran out: the round is over and nobody went out (R18).",
    "event.sentence": "{name} {actions}{note}.",
    "list.pair": "{first} and {last}",
    "list.separator": ", ",
    # --- hand panel ---
    "panel.title": "Your hand — {count} cards",
    "panel.title.one": "Your hand — 1 card",
    "panel.sorted.suit": "Sorted by suit",
    "panel.sorted.rank": "Sorted by rank",
    "panel.empty_hand": "Your hand is empty.",
    "panel.selected": "Selected: {cards}",
    "panel.nothing_selected": "Select cards below, then choose a move.",
    "panel.turn.draw": "Your turn: draw a card.",
    "panel.turn.play": "Your turn: meld, lay off, swap a joker, or discard to end your turn.",
    "panel.turn.other": "{name} is playing.",
    "panel.turn.waiting": "Not your turn yet: this panel updates by itself when your turn comes.",
    "panel.turn.deadline": "Time runs out {when}.",
    "panel.round_over": "The round is over.",
    "panel.match_over": "The match is over.",
    "panel.round_score": "You scored {score} this round; your total is {total}.",
    "panel.drawn": "🆕 You drew {card}.",
    "panel.table": "On the table",
    "panel.meld_short": "`{meld_id}` {cards}",
    "panel.moved": "This panel moved: your hand is in the newest panel below.",
    "panel.sitting_out": "You sit out this tie-break round (R6).",
    "panel.pending": "Proposed melds: {points} of {needed} points toward the opening",
    "panel.opened": "You have opened: you may lay off and swap jokers (R14).",
    "panel.opening_needed": "Opening: your first melds must reach {points} points (R13).",
    "panel.taken": "You took {card} from the discard pile: you may not discard it this turn (R12).",
    "panel.target.lay_off": "Choose the meld to lay {cards} off on.",
    "panel.target.swap_joker": (
        "Choose the joker to swap: the other selected cards form a new meld with it (R16)."
    ),
    "panel.swap.one": (
        "{card} can take the joker's place in {melds}. Now select {card} together with the cards "
        "that make a new meld with the freed joker (two or more), then click Swap joker again (R16)."
    ),
    "panel.swapped": "You put {card} in for the joker in {meld_id} and melded the joker with {cards}.",
    "panel.footer": "Only you see this panel. Game {game_id}",
    # --- hint ---
    "hint.title": "Hint",
    "hint.best": "Best melds in your hand ({points} points)",
    "hint.none": "No meld in your hand yet.",
    "hint.opening_reached": "Enough for your opening ({needed} points).",
    "hint.opening_short": "Not enough for your opening yet: {points} of {needed} points.",
    "hint.opened": "You have opened: every meld counts.",
    # --- round end ---
    "round_end.title": "Round {round} is over",
    "round_end.title.tiebreak": "Tie-break round {round} is over",
    "round_end.out": "{name} went out.",
    "round_end.hand_romme": "{name} went out in one go: Hand-Rommé (R22)!",
    "round_end.nobody_out": "The stock ran out: nobody went out (R18).",
    "round_end.seat_line": "**{name}**: melded {melded} · in hand {in_hand} · round {score} · total {total}",
    "round_end.scores": "Scores",
    "round_end.next": "The next round starts {when}, or click **Next round**.",
    "round_end.next_now": "Click **Next round** to deal the next round.",
    "round_end.started": "Round {round} has started: the table is below.",
    # --- match end ---
    "match_end.title": "The match is over",
    "match_end.winner": "🏆 {name} wins with {points} points.",
    "match_end.cancelled": "The game was stopped; the results so far are kept.",
    "match_end.idle": (
        "The game ended by itself: nobody made a move for a long time. The results so far are kept."
    ),
    "match_end.no_winner": "No winner.",
    "match_end.standings": "Final standings",
    "match_end.standing_line": "{place}. **{name}** — {points} points",
    "match_end.tiebreaks": "Tie-break rounds played: {count} (R6)",
    # --- scores ---
    "scores.title": "Standings — game {game_id}",
    "scores.total": "Total",
    "scores.no_rounds": "No round has ended yet.",
    "leaderboard.title": "Leaderboard",
    "leaderboard.empty": "Nobody has finished a match on this server yet.",
    "leaderboard.line": "{place}. {player} — {matches} · {wins} · {points} points · best round {best}",
    "count.matches": "{count} matches",
    "count.matches.one": "{count} match",
    "count.wins": "{count} wins",
    "count.wins.one": "{count} win",
    "record.title": "Player record",
    "record.none": "{player} has not finished a match on this server yet.",
    "record.body": ("{player}\nMatches: {matches}\nWins: {wins}\nPoints: {points}\nBest round: {best}"),
    "record.no_best": "—",
    # --- stop ---
    "stop.confirm": "Stop this game? The results so far are kept.",
    "stop.done": "The game was stopped.",
    # --- /romme join and leave (ephemeral answers) ---
    "command.joined": "You took a seat in game {game_id}.",
    "command.left": "You left game {game_id}.",
    "command.left.running": "You left game {game_id}: the computer plays your seat now.",
    # --- refusals ---
    "refusal": "⚠️ {text}",
    "error.rule": "{text} (rule {rule})",
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
    "game.exists.jump": "Its table: {link}",
    "error.bot_permission": (
        "I cannot run a table here: I need these permissions in this channel: {permissions}."
    ),
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
}
