"""Teks Bahasa Indonesia: kunci dan placeholder yang sama dengan ``bot/i18n/en.py``.

Istilah meja diambil dari teks aturan Rommé Jerman berbahasa Indonesia: kombinasi, run (urutan),
set (kelompok), menurunkan kombinasi, menambahkan kartu (lay off), menukar Joker, tumpukan undian,
tumpukan buangan, kombinasi pertama (minimal 40 poin), mengosongkan tangan. Bahasa Indonesia tidak
mengenal bentuk jamak pada kata benda: "1 kartu", "13 kartu".
"""

from __future__ import annotations

from bot.i18n.glossary import Term

GLOSSARY: dict[str, Term] = {
    # Satu istilah untuk satu hal di semua tampilan (diperiksa oleh tests/i18n/test_glossary.py):
    # entri mana yang membicarakan hal itu ditentukan oleh teks Inggrisnya (en.py, GLOSSARY).
    "opening": Term(r"kombinasi[ _]pertama", forbidden=(r"\bpembuka\b",), always=True),
    # "turunan" berarti keturunan; yang diturunkan ke meja adalah kombinasi.
    "meld": Term(r"kombinasi|turun", forbidden=(r"\bturunan\b",)),
    "run": Term(r"\brun\b"),
    "lay_off": Term(r"tambah|menambah", always=True),
    # "keluar" adalah meninggalkan permainan, bukan mengosongkan tangan.
    "went_out": Term(r"mengosongkan tangan|dikosongkan", not_for=(r"\bkeluar\b",), always=True),
    "leave": Term(r"keluar|meninggalkan|tinggalkan", only_here=True),
    "scoring": Term(r"\bskor\b", forbidden=(r"\bpenilaian\b",), always=True),
    # "nilai" adalah nilai kartu di semua tampilan lain, jadi rating disebut "rating".
    "rating": Term(r"\brating\b|ber-rating", not_for=(r"\bnilai\b", r"\bdinilai\b"), always=True),
    "replay": Term(r"\breplay", forbidden=(r"\btayangan\b",), always=True),
    "match": Term(r"\bpermainan\b"),
    "round": Term(r"\bronde\b", forbidden=(r"\bbabak\b",), always=True),
    "lobby": Term(r"\blobi\b", forbidden=(r"\bruang tunggu\b",), always=True),
    "host": Term(r"\bhost\b", forbidden=(r"\btuan rumah\b",), always=True),
    # "pemandu" adalah pemandu wisata; peran yang boleh menghentikan permainan mengelolanya.
    "game_master": Term(r"pengelola permainan", forbidden=(r"\bpemandu\b", r"\bmemandu\b"), always=True),
    "settings": Term(r"pengaturan", always=True),
    "preferences": Term(r"preferensi|pilihanmu"),
    "panel": Term(r"\bpanel\b"),
    "text_cards": Term(r"\bteks\b", forbidden=(r"\bsebagai tulisan\b",), always=True),
    "sort": Term(r"urut", always=True),
    "hand": Term(r"tangan|kartumu|kartu saya"),
    "button": Term(r"\btombol\b", always=True),
    # Jumlah pemain di lobi boleh tetap "Kursi (3/6)"; di tempat lain mereka adalah pemain.
    "seat": Term(r"\bpemain\b", forbidden=(r"\bkursi\b",), allowed={"lobby.seats": "hitungan kursi di lobi"}),
}
"""Satu istilah untuk satu hal (lihat :mod:`bot.i18n.glossary`)."""

MESSAGES: dict[str, str] = {
    # --- kata untuk semua tampilan: kartu, kombinasi, kursi, tingkat, daftar, angka, bahasa ---
    "cards.none": "—",
    "meld.line": "`{meld_id}` {owner}: {cards} ({points})",
    "meld.pending_line": "{cards} ({points})",
    "meld.more": "… dan {count} kombinasi lagi",
    "meld.more.one": "… dan 1 kombinasi lagi",
    "seat.tag.away": "sedang tidak aktif",
    "seat.tag.left": "keluar",
    "seat.tag.sits_out": "tidak ikut ronde penentuan",
    "seat.tag.level.easy": "mudah",
    "seat.tag.level.normal": "biasa",
    "seat.tag.level.hard": "sulit",
    "seat.opened": "sudah turun",
    "seat.not_opened": "belum turun",
    "seat.cards": "{count} kartu",
    "seat.card": "1 kartu",
    "seat.points": "{points} poin",
    "seat.points.one": "{points} poin",
    "seat.computer": "Komputer {number}",
    "level.easy": "mudah",
    "level.normal": "biasa",
    "level.hard": "sulit",
    "list.pair": "{first} dan {last}",
    "list.separator": ", ",
    "number.group": ".",
    "number.group.rating": ".",
    "number.percent": "{percent}%",
    "language.name": "Bahasa Indonesia",
    "language.en": "English",
    "language.de": "Deutsch",
    "language.id": "Bahasa Indonesia",
    # --- lobi: pesan dan tombolnya, aturan meja yang ditampilkan, /romme join dan leave ---
    "lobby.title": "Rommé — permainan baru",
    "lobby.description": (
        "Host: {host}. Klik **Gabung** untuk ikut bermain. Host menekan **Mulai** jika sudah ada 2 sampai 6"
        " pemain."
    ),
    "lobby.seats": "Kursi ({count}/{max})",
    "lobby.no_seats": "Belum ada pemain.",
    "lobby.house_rules": "Aturan meja",
    "lobby.cancelled": "Permainan ini dibatalkan.",
    "lobby.expired": (
        "Lobi ini otomatis ditutup: tidak ada yang memulai permainan tepat waktu. Siapa pun dapat membuka "
        "meja baru di sini dengan /romme start."
    ),
    "lobby.started": "Permainan sudah dimulai: mejanya ada di bawah.",
    "lobby.footer": "Permainan {game_id}",
    "lobby.language": "Bahasa: {language}",
    "lobby.server_house_rules": "Aturan meja server ini",
    "button.join": "Gabung",
    "button.leave": "Keluar",
    "button.add_computer": "Tambah komputer",
    "button.start": "Mulai",
    "button.cancel": "Batal",
    "rules.jokers": "Joker: {count}",
    "rules.opening": "Kombinasi pertama: minimal {points} poin",
    "rules.scoring.melds": "Skor: kombinasi dikurangi kartu di tangan",
    "rules.scoring.penalty": "Skor: penalti, hanya kartu di tangan yang dihitung",
    "rules.hand_romme.on": "Hand-Rommé menggandakan poin kartu di tangan pemain lain",
    "rules.hand_romme.off": "Tanpa bonus Hand-Rommé",
    "rules.discard_to_go_out.on": "Kartu terakhir harus dibuang untuk mengosongkan tangan",
    "rules.discard_to_go_out.off": (
        "Boleh mengosongkan tangan dengan menurunkan atau menambahkan kartu terakhir"
    ),
    "rules.rounds.per_seat": "Ronde: satu untuk setiap pemain",
    "rules.rounds.fixed": "Ronde: {count}",
    "rules.turn_timeout": "Waktu giliran: {seconds} detik",
    "rules.computers": "Pemain komputer: {count}",
    "command.joined": "Kamu bergabung di permainan {game_id}.",
    "command.left": "Kamu keluar dari permainan {game_id}.",
    "command.left.running": "Kamu keluar dari permainan {game_id}: komputer kini bermain menggantikanmu.",
    "command.thread_opened": "{host} membuka meja Rommé: {thread}",
    # --- meja: pesannya, kursi dan tumpukan, langkah terakhir dalam kata-kata ---
    "table.title": "Rommé — ronde {round} dari {rounds}",
    "table.title.tiebreak": "Rommé — ronde penentuan {round} (setelah {rounds} ronde)",
    "table.title.tiebreak.one": "Rommé — ronde penentuan {round} (setelah {rounds} ronde)",
    "table.dealer": "Dealer: {name}",
    "table.turn.draw": "Giliran: {who} — ambil kartu",
    "table.turn.play": "Giliran: {who} — turunkan kombinasi, tambahkan kartu, atau buang",
    "table.turn.deadline": "Batas waktu giliran: {when}",
    "table.round_over": "Ronde telah berakhir.",
    "table.seats": "Pemain",
    "table.seat_line": "{marker}**{name}** — {cards} · {opened} · {total}{tags}",
    "table.piles": "Tumpukan",
    "table.stock": "Tumpukan undian: {count} kartu",
    "table.stock.one": "Tumpukan undian: 1 kartu",
    "table.discard_top": "Tumpukan buangan: {card} paling atas ({cards})",
    "table.discard_empty": "Tumpukan buangan: kosong",
    "table.reshuffles": "Dikocok ulang: {count} dari 3",
    "table.melds": "Kombinasi di meja",
    "table.melds.more": "Kombinasi di meja (lanjutan)",
    "table.no_melds": "Belum ada.",
    "table.last_move": "Langkah terakhir",
    "table.footer": "Permainan {game_id} · klik Kartu saya untuk melihat kartumu",
    "table.content.turn": "{mention}, giliranmu.",
    "table.moved": "Ronde {round} dimainkan di sini; meja ronde berikutnya ada di bawah.",
    "table.footer.over": "Permainan {game_id} · permainan sudah selesai: hasilnya ada di bawah",
    "table.results": "**Permainan sudah selesai:** [lihat hasilnya]({url})",
    "event.draw.stock": "mengambil kartu dari tumpukan undian",
    "event.draw.discard": "mengambil {card} dari tumpukan buangan",
    "event.meld": "menurunkan {cards}",
    "event.meld.proposed": "mengusulkan kombinasi untuk kombinasi pertama",
    "event.opened": "menurunkan kombinasi pertama {cards} ({points} poin)",
    "event.opened.no_points": "menurunkan kombinasi pertama {cards}",
    "event.lay_off": "menambahkan {cards} pada {meld_id}",
    "event.swap_joker": "menukar Joker di {meld_id} dengan {card}, lalu menurunkan Joker itu bersama {cards}",
    "event.discard": "membuang {card}",
    "event.take_back": "menarik kembali kombinasi yang diusulkan",
    "event.timeout": "kehabisan waktu, jadi komputer bermain menggantikannya",
    "event.away": "sedang tidak aktif: komputer bermain menggantikannya",
    "event.left": "keluar dari permainan: komputer bermain menggantikannya",
    "event.back": "sudah kembali",
    "event.by_computer": " (dimainkan oleh komputer)",
    "event.round_over.out": "{name} telah mengosongkan tangannya: ronde berakhir.",
    "event.round_over.nobody": (
        "Tumpukan undian habis: ronde berakhir dan tidak ada yang mengosongkan tangan."
    ),
    "event.sentence": "{name} {actions}{note}.",
    "button.hand": "Kartu saya",
    "thread.name": "Rommé, meja {host}",
    "game.exists.jump": "Mejanya: {link}",
    # --- panel kartu di tangan: tombol, pilihan, dan petunjuk ---
    "panel.title": "Kartu di tanganmu — {count} kartu",
    "panel.title.one": "Kartu di tanganmu — 1 kartu",
    "panel.sorted.suit": "Diurutkan menurut jenis",
    "panel.sorted.rank": "Diurutkan menurut nilai",
    "panel.empty_hand": "Tanganmu kosong.",
    "panel.selected": "Dipilih: {cards}",
    "panel.nothing_selected": "Pilih kartu di bawah, lalu pilih langkah.",
    "panel.turn.draw": "Giliranmu: ambil satu kartu.",
    "panel.turn.play": (
        "Giliranmu: turunkan kombinasi, tambahkan kartu, tukar Joker, atau buang kartu untuk mengakhiri "
        "giliran."
    ),
    "panel.turn.waiting": "Belum giliranmu: panel ini diperbarui sendiri saat giliranmu tiba.",
    "panel.turn.deadline": "Batas waktu giliranmu: {when}.",
    "panel.round_over": "Ronde telah berakhir.",
    "panel.match_over": "Permainan sudah selesai.",
    "panel.round_score": "Skormu ronde ini {score}; totalmu {total}.",
    "panel.drawn": "➕ Kamu mengambil **{card}**.",
    "panel.table": "Di meja",
    "panel.meld_short": "`{meld_id}` {cards}",
    "panel.moved": "Panel ini sudah pindah: kartumu ada di panel terbaru di bawah.",
    "panel.sitting_out": "Kamu tidak ikut ronde penentuan ini.",
    "panel.pending": "Kombinasi yang diusulkan: {points} dari {needed} poin untuk kombinasi pertama",
    "panel.pending.one": "Kombinasi yang diusulkan: {points} dari {needed} poin untuk kombinasi pertama",
    "panel.opened": "Kamu sudah turun: kamu boleh menambahkan kartu dan menukar Joker.",
    "panel.opening_needed": "Kombinasi pertama: kombinasimu harus bernilai total minimal {points} poin.",
    "panel.taken": (
        "Kamu mengambil {card} dari tumpukan buangan: kartu itu tidak boleh kamu buang pada giliran ini."
    ),
    "panel.target.lay_off": "Pilih kombinasi untuk menambahkan {cards}.",
    "panel.target.swap_joker": (
        "Pilih Joker yang akan ditukar: kartu lain yang dipilih membentuk kombinasi baru bersamanya."
    ),
    "panel.swap.one": (
        "{card} bisa menggantikan Joker di {melds}. Sekarang pilih {card} bersama kartu-kartu yang "
        "membentuk kombinasi baru dengan Joker yang dibebaskan (dua atau lebih), lalu klik Tukar "
        "Joker lagi."
    ),
    "panel.swapped": (
        "Kamu memasang {card} menggantikan Joker di {meld_id} dan menurunkan Joker bersama {cards}."
    ),
    "panel.footer": "Hanya kamu yang melihat panel ini. Permainan {game_id}",
    "button.draw": "Ambil kartu",
    "button.take": "Ambil buangan",
    "button.sort": "Urutkan",
    "button.meld": "Turunkan",
    "button.lay_off": "Tambahkan kartu",
    "button.swap_joker": "Tukar Joker",
    "button.discard": "Buang",
    "button.take_back": "Tarik kembali",
    "button.hint": "Petunjuk",
    "select.cards": "Pilih kartu dari tanganmu",
    "select.cards.more": "Hanya {count} kartu pertama yang bisa dipilih di sini",
    "select.target.lay_off": "Tambahkan ke kombinasi yang mana?",
    "select.target.swap_joker": "Tukar Joker dari kombinasi yang mana?",
    "select.target.none": "Tidak ada kombinasi di meja yang cocok",
    "select.option.meld": "{meld_id} · {owner}: {cards}",
    "select.option.meld_end.low": "{meld_id} · {owner}: Joker di ujung bawah",
    "select.option.meld_end.high": "{meld_id} · {owner}: Joker di ujung atas",
    "select.option.swap_joker": "{meld_id} · {owner}: pasang {card} menggantikan Joker",
    "select.discard": "Buang satu kartu untuk mengakhiri giliranmu",
    "hint.title": "Petunjuk",
    "hint.best": "Kombinasi terbaik di tanganmu ({points} poin)",
    "hint.none": "Belum ada kombinasi di tanganmu.",
    "hint.opening_reached": (
        "Kombinasimu bernilai {points} poin: cukup untuk kombinasi pertamamu, yang butuh {needed}."
    ),
    "hint.opening_short": "Belum cukup untuk kombinasi pertamamu: {points} dari {needed} poin.",
    "hint.opening_short.one": "Belum cukup untuk kombinasi pertamamu: {points} dari {needed} poin.",
    "hint.opened": "Kamu sudah turun: setiap kombinasi dihitung.",
    # --- menghentikan permainan (/romme stop) ---
    "stop.confirm": "Hentikan permainan ini? Hasil sejauh ini tetap disimpan.",
    "stop.done": "Permainan telah dihentikan.",
    "stop.confirm.leaver": (
        "Kamu ikut permainan ini: jika kamu menghentikannya, kamu ditempatkan di urutan terakhir, di bawah "
        "semua yang tetap bermain, dan permainan dihitung untuk rating menurut klasemen sejauh ini."
    ),
    "stop.confirm.standings": "Permainan akan dihitung untuk rating menurut klasemen sejauh ini.",
    "stop.confirm.unrated": "Belum ada ronde yang selesai: permainan tidak akan dihitung untuk rating.",
    "button.stop_yes": "Hentikan permainan",
    # --- akhir ronde ---
    "round_end.title": "Ronde {round} telah berakhir",
    "round_end.title.tiebreak": "Ronde penentuan {round} telah berakhir",
    "round_end.out": "{name} telah mengosongkan tangannya.",
    "round_end.out.you": "Kamu telah mengosongkan tanganmu.",
    "round_end.hand_romme": "{name} mengosongkan tangannya sekaligus: Hand-Rommé!",
    "round_end.hand_romme.you": "Kamu mengosongkan tanganmu sekaligus: Hand-Rommé!",
    "round_end.nobody_out": "Tumpukan undian habis: tidak ada yang mengosongkan tangan.",
    "round_end.seat_line": (
        "**{name}**: kombinasi {melded} · di tangan {in_hand} · ronde {score} · jumlah {total}"
    ),
    "round_end.scores": "Skor",
    "round_end.hand_left": "{name}: kartu tersisa di tangan",
    "round_end.next": "Ronde berikutnya dimulai {when}, atau klik **Ronde berikutnya**.",
    "round_end.next_now": "Klik **Ronde berikutnya** untuk membagikan kartu ronde berikutnya.",
    "round_end.started": "Ronde {round} sudah dimulai: mejanya ada di bawah.",
    "button.next_round": "Ronde berikutnya",
    # --- akhir permainan, dan apakah dan bagaimana permainan dinilai ---
    "match_end.title": "Permainan telah berakhir",
    "match_end.winner": "🏆 {name} menang dengan {points} poin.",
    "match_end.winner.one": "🏆 {name} menang dengan 1 poin.",
    "match_end.winner.you": "🏆 Kamu menang dengan {points} poin.",
    "match_end.winner.you.one": "🏆 Kamu menang dengan 1 poin.",
    "match_end.cancelled": "Permainan dihentikan; hasil sejauh ini tetap disimpan.",
    "match_end.idle": (
        "Permainan berakhir dengan sendirinya: sudah lama tidak ada yang bermain. Hasil sejauh ini tetap "
        "disimpan."
    ),
    "match_end.no_winner": "Tidak ada pemenang.",
    "match_end.standings": "Klasemen akhir",
    "match_end.standing_line": "{place}. **{name}** — {points} poin",
    "match_end.standing_line.one": "{place}. **{name}** — {points} poin",
    "match_end.tiebreaks": "Ronde penentuan yang dimainkan: {count}",
    "match_end.ratings": "Rating",
    "match_end.rated.leaver": (
        "Dihitung untuk rating menurut klasemen setelah {count} ronde; {name} menghentikan permainan dan "
        "ditempatkan di urutan terakhir."
    ),
    "match_end.rated.leaver.one": (
        "Dihitung untuk rating menurut klasemen setelah 1 ronde; {name} menghentikan permainan dan "
        "ditempatkan di urutan terakhir."
    ),
    "match_end.rated.leaver_no_round": (
        "Dihitung untuk rating sebelum ada ronde yang selesai: {name} menghentikan permainan dan "
        "ditempatkan di urutan terakhir, di bawah semua yang tetap bermain."
    ),
    "match_end.rated.standings": "Dihitung untuk rating menurut klasemen setelah {count} ronde.",
    "match_end.rated.standings.one": "Dihitung untuk rating menurut klasemen setelah 1 ronde.",
    "match_end.unrated.no_round": "Tidak dihitung untuk rating: belum ada ronde yang selesai.",
    "button.play_again": "Main lagi",
    # --- riwayat permainan dan tayangan ulang ---
    "history.title": "Permainan terakhir di server ini",
    "history.title.member": "Permainan terakhir {name}",
    "history.empty": "Belum ada permainan yang selesai di sini.",
    "history.line": (
        "**{number}.** {when} · permainan {game_id} ({state})\n"
        "{places}\n"
        "Mengosongkan tangan per ronde: {outs}"
    ),
    "history.place": "{place}. {name} ({points})",
    "history.nobody": "tidak ada",
    "history.finished": "selesai",
    "history.stopped": "dihentikan",
    "history.button": "Replay {number}",
    "history.more": "… dan {count} permainan lagi",
    "history.more.one": "… dan 1 permainan lagi",
    "replay.title": "Replay permainan {game_id} · ronde {round} dari {rounds}",
    "replay.title.tiebreak": "Replay permainan {game_id} · ronde penentuan {round}",
    "replay.step": "Langkah {step} dari {steps}",
    "replay.deal": "{name} membagikan kartu; kartu terbuka adalah {card}.",
    "replay.move": "{name} sudah jalan.",
    "replay.take_back": "{name} menarik kembali kombinasi yang diusulkan.",
    "replay.hands": "Pemain dan kartu di tangan",
    "replay.seat": "{marker}**{name}** · {total} poin · {count} kartu\n{cards}",
    "replay.seat.one": "{marker}**{name}** · {total} poin · 1 kartu\n{cards}",
    "replay.seat_out": "**{name}** · {total} poin · tidak ikut ronde ini",
    "replay.proposed": "Diusulkan: {cards}",
    "replay.discard": "Tumpukan buangan: {card} paling atas ({count} kartu)",
    "replay.discard.one": "Tumpukan buangan: {card} paling atas (1 kartu)",
    "replay.meld": "{meld_id} ({owner}): {cards}",
    "replay.footer": "Permainan {game_id} · hanya kamu yang melihat replay ini",
    "replay.next_turn": "Giliran berikutnya",
    "replay.round": "Ronde {round}",
    "replay.round_select": "Lompat ke ronde",
    "replay.download": "Unduh",
    "replay.export_ready": (
        "Permainan {game_id} sebagai berkas JSON; formatnya dijelaskan di dokumentasi bot."
    ),
    "replay.choice": "Permainan {game_id} · {when} · {players}",
    # --- skor, papan peringkat, dan rekor ---
    "scores.title": "Klasemen — permainan {game_id}",
    "scores.total": "Jumlah",
    "scores.no_rounds": "Belum ada ronde yang berakhir.",
    "scores.row.round": "R{number}",
    "scores.row.tiebreak": "P{number}",
    "leaderboard.title": "Papan peringkat",
    "leaderboard.empty": "Belum ada yang menyelesaikan permainan di server ini.",
    "leaderboard.line": ("{place}. {player} — {matches} · {wins} · {points} poin · ronde terbaik {best}"),
    "leaderboard.line.one": "{place}. {player} — {matches} · {wins} · {points} poin · ronde terbaik {best}",
    "count.matches": "{count} permainan",
    "count.matches.one": "{count} permainan",
    "count.wins": "{count} kemenangan",
    "count.wins.one": "{count} kemenangan",
    "record.title": "Statistik pemain",
    "record.none": "{player} belum pernah menyelesaikan permainan di server ini.",
    "record.body": (
        "{player}\nPermainan: {matches}\nKemenangan: {wins}\nPoin: {points}\nRonde terbaik: {best}"
    ),
    "record.no_best": "—",
    # --- rating, musim, papan, dan profil ---
    "rating.change": "{delta} → {rating}",
    "rating.provisional": "sementara",
    "rating.line": "**{name}**: {change}",
    "rating.line.provisional": "**{name}**: {change} ({provisional})",
    "board.title": "Papan peringkat musim {season}",
    "board.title.past": "Musim {season}: klasemen akhir",
    "board.since": "Sejak {start}",
    "board.period": "Dari {start} sampai {end}",
    "board.line": "{rank}. {player} — {rating} · {matches} · {wins}",
    "board.line.provisional": "{rank}. {player} — {rating} ({provisional}) · {matches} · {wins}",
    "board.empty": (
        "Belum ada yang punya rating di musim ini: selesaikan satu permainan untuk mendapatkannya."
    ),
    "board.page": "Halaman {page} dari {pages} · {size} pemain ber-rating",
    "board.elsewhere": "Papan peringkat ini milik server lain.",
    "button.board.previous": "Sebelumnya",
    "button.board.next": "Berikutnya",
    "season.unknown": "Server ini belum punya musim {season}.",
    "season.not_allowed": "Hanya anggota dengan izin Kelola Server yang bisa memulai musim baru.",
    "season.started": "Musim {season} telah dimulai di server ini.",
    "profile.title": "Profil {name}",
    "profile.none": "{player} belum punya permainan yang masuk rating di server ini.",
    "profile.rating": "Rating (musim {season})",
    "profile.rating.value": "**{rating}** · peringkat {rank} dari {size}",
    "profile.rating.provisional": "**{rating}** ({provisional}) · peringkat {rank} dari {size}",
    "profile.rating.none": "Belum ada permainan di musim ini",
    "profile.stats": "Statistik",
    "profile.body": (
        "Permainan: {matches}\n"
        "Menang: {wins} ({rate})\n"
        "Posisi rata-rata: {place}\n"
        "Mengosongkan tangan di {out} ronde\n"
        "Ronde terbaik: {best_round}\n"
        "Permainan terbaik: {best_match}\n"
        "Hand-Rommé: {hand}\n"
        "Tingkat komputer yang dikalahkan: {levels}"
    ),
    "profile.chart": "Rating dalam {count} permainan terakhir",
    "profile.chart.one": "Rating setelah permainan pertama",
    "profile.nothing": "—",
    # --- pengaturan server ---
    "settings.title": "Pengaturan server",
    "settings.description": (
        "Bawaan setiap permainan baru di server ini. Opsi /romme start tetap dapat mengubahnya untuk "
        "satu permainan."
    ),
    "settings.house_rules": "Aturan meja",
    "settings.games": "Permainan baru",
    "settings.places": "Saluran dan peran pengelola permainan",
    "settings.on": "aktif",
    "settings.off": "nonaktif",
    "settings.language.server": "bahasa server",
    "settings.line.language": "Bahasa: {language}",
    "settings.line.turn_timeout": "Waktu giliran: {seconds} detik",
    "settings.line.lobby_timeout": "Lobi yang belum dimulai ditutup setelah {minutes} menit",
    "settings.line.computer_level": "Tingkat komputer: {level}",
    "settings.line.threads": "Setiap permainan di utas tersendiri: {value}",
    "settings.line.channels": "Permainan boleh dimulai di: {channels}",
    "settings.line.role": "Peran pengelola permainan: {role}",
    "settings.channels.all": "semua saluran",
    "settings.role.none": "tidak ada (hanya Kelola Server)",
    "settings.level.easy": "mudah",
    "settings.level.normal": "biasa",
    "settings.level.hard": "sulit",
    "settings.pick": "Ubah aturan meja, bahasa, tingkat…",
    "settings.channels.pick": "Saluran tempat permainan boleh dimulai (tidak dipilih: semua)",
    "settings.role.pick": (
        "Peran pengelola permainan, dipilih dengan Kelola Server (boleh menghentikan permainan)"
    ),
    "settings.numbers": "Angka…",
    "settings.reset": "Atur ulang semua",
    "settings.reset.done": "semua pengaturan kembali ke bawaan bot",
    "settings.reset.kept_role": (
        "semua pengaturan kembali ke bawaan bot, kecuali peran pengelola permainan (hanya Kelola Server "
        "yang mengubahnya)"
    ),
    "settings.numbers.title": "Pengaturan server: angka",
    "settings.input.opening": "Poin kombinasi pertama ({low}-{high})",
    "settings.input.opening.hint": "40",
    "settings.input.rounds": "Jumlah ronde ({low}-{high})",
    "settings.input.rounds.hint": "kosong: satu per pemain",
    "settings.input.turn_timeout": "Waktu giliran dalam detik ({low}-{high})",
    "settings.input.turn_timeout.hint": "kosong: bawaan bot",
    "settings.input.lobby_timeout": "Lobi ditutup setelah … menit ({low}-{high})",
    "settings.input.lobby_timeout.hint": "kosong: bawaan bot",
    "settings.name.language": "bahasa",
    "settings.name.jokers": "joker",
    "settings.name.opening": "kombinasi pertama",
    "settings.name.scoring": "skor",
    "settings.name.hand_romme": "Hand-Rommé",
    "settings.name.discard_to_go_out": "mengosongkan tangan hanya dengan membuang",
    "settings.name.rounds": "jumlah ronde",
    "settings.name.turn_timeout": "waktu giliran",
    "settings.name.lobby_timeout": "batas waktu lobi",
    "settings.name.computer_level": "tingkat komputer",
    "settings.name.threads": "permainan di utas",
    "settings.name.channels": "saluran",
    "settings.name.game_master_role": "peran pengelola permainan",
    "settings.name.cards": "kartu",
    "settings.name.sort": "urutan",
    "settings.name.mention": "sebutan",
    "settings.name.?": "pengaturan",
    "settings.saved": "✅ Tersimpan: {what}",
    "settings.ratings": "Rating",
    "settings.line.season_length": "Musim: {length}",
    "settings.season.monthly": "masing-masing satu bulan kalender (UTC)",
    "settings.season.manual": "hanya dimulai secara manual (/romme season)",
    "settings.season.days": "masing-masing {count} hari",
    "settings.season.days.one": "masing-masing 1 hari",
    "settings.input.season_length": "Panjang musim dalam hari ({low}-{high})",
    "settings.input.season_length.hint": "kosong: sesuai pilihan di daftar",
    "settings.name.season_length": "panjang musim",
    # --- preferensi ---
    "preferences.title": "Preferensimu",
    "preferences.description": "Pilihanmu sendiri, di setiap server.",
    "preferences.cards.faces": "Kartu sebagai gambar",
    "preferences.cards.text": "Kartu sebagai teks (dibacakan pembaca layar)",
    "preferences.sort.suit": "Kartu diurutkan menurut jenis",
    "preferences.sort.rank": "Kartu diurutkan menurut nilai",
    "preferences.language": "Bahasa balasan pribadi: {language}",
    "preferences.language.discord": "bahasa perangkatmu",
    "preferences.mention.on": "Sebut aku saat giliranku",
    "preferences.mention.off": "Jangan sebut aku saat giliranku",
    "preferences.pick": "Ubah preferensi…",
    "preferences.name.cards": "kartu",
    "preferences.name.sort": "urutan",
    "preferences.name.language": "bahasa",
    "preferences.name.mention": "sebutan",
    # --- bantuan dan ringkasan aturan ---
    "help.title": "Rommé: cara bermain",
    "help.about": (
        "Rommé adalah permainan kartu dari Jerman untuk 2 sampai 6 orang, dengan dua pak kartu dan joker.\n"
        "Susun set (nilai sama) dan run (jenis sama, berurutan) dari kartumu lalu turunkan ke meja.\n"
        "Yang pertama menghabiskan semua kartu mengakhiri ronde; yang lain menghitung sisa kartunya."
    ),
    "help.turn": "Satu giliran dalam lima langkah",
    "help.turn.steps": (
        "1. Tekan **{hand}** untuk melihat kartumu secara pribadi.\n"
        "2. **{draw}** dari tumpukan, atau **{take}**.\n"
        "3. Pilih kartu lalu tekan **{meld}** (kombinasi pertamamu harus mencapai poin minimal).\n"
        "4. **{lay_off}**: tambahkan kartu ke kombinasi yang sudah di meja.\n"
        "5. **{discard}** satu kartu: giliran berpindah ke pemain berikutnya."
    ),
    "help.commands": "Perintah",
    "help.commands.list": (
        "/romme start: buka meja · /romme join, /romme leave: gabung atau keluar\n"
        "/romme hand: kartumu · /romme score: klasemen · /romme rules: aturan singkat\n"
        "/romme stop: akhiri permainan · /romme preferences: pilihanmu · /romme settings: bawaan server · "
        "/romme help: halaman ini\n"
        "/romme history, /romme replay: permainan terakhir, ditonton lagi langkah demi langkah · /romme "
        "profile: rating dan statistik anggota · /romme season: musim baru"
    ),
    "help.rule_book": "Buku aturan",
    "help.tip": (
        "💡 Tips: pilih kartu di daftar di bawah, lalu tekan tombol; /romme help menjelaskan satu giliran "
        "langkah demi langkah."
    ),
    "help.early_end.title": "Menghentikan permainan",
    "help.early_end": (
        "Siapa pun yang ikut bermain dan menghentikan permainan (/romme stop) ditempatkan di urutan "
        "terakhir, di bawah semua yang tetap bermain, dan permainan dihitung untuk rating menurut klasemen "
        "sejauh ini, bahkan di ronde pertama. Jika dihentikan oleh anggota yang tidak ikut bermain (Kelola "
        "Server atau peran pengelola permainan), atau berakhir dengan sendirinya karena tidak ada yang "
        "bermain, permainan dihitung untuk rating menurut klasemen sejauh ini setelah satu ronde selesai, "
        "dan tidak dihitung sama sekali sebelumnya."
    ),
    "help.seasons.title": "Musim",
    "help.seasons": (
        "Rating berjalan per musim, masing-masing satu bulan kalender (UTC), kecuali pengaturan server "
        "(/romme settings) memilih sejumlah hari atau hanya dimulai secara manual; anggota dengan izin "
        "Kelola Server dapat memulai musim berikutnya kapan saja dengan /romme season. Musim baru "
        "mengosongkan papan peringkat dan membuat setiap rating kurang pasti: rating ditampilkan lebih "
        "rendah dan bersifat sementara selama 5 permainan. Kemampuan di baliknya tetap terbawa, begitu pula"
        " kemenangan, poin, profil, dan klasemen akhir setiap musim yang lalu (`/romme score season:`)."
    ),
    "rules.title": "Rommé — aturan singkat",
    "rules.summary": (
        "Dua dek kartu dan Joker. Setiap pemain mendapat 13 kartu; sisanya menjadi tumpukan undian, "
        "dan kartu teratasnya memulai tumpukan buangan (R1, R5).\n"
        "**Giliranmu:** ambil kartu teratas dari tumpukan undian atau dari tumpukan buangan; lalu "
        "turunkan kombinasi, tambahkan kartu, dan tukar Joker sesukamu; lalu buang satu kartu (R11). "
        "Kartu yang diambil dari tumpukan buangan tidak boleh dibuang lagi pada giliran yang sama "
        "(R12).\n"
        "**Kombinasi:** run (urutan) adalah tiga kartu atau lebih berurutan dengan jenis yang sama "
        "(A-2-3 atau Q-K-A, tidak pernah K-A-2); set (kelompok) adalah 3-4 kartu bernilai sama "
        "dengan jenis berbeda. Joker dapat menggantikan kartu apa pun; kombinasi dengan dua Joker "
        "atau lebih harus memiliki setidaknya dua kartu asli, bukan Joker (R7-R10).\n"
        "**Kombinasi pertama:** kombinasi pertamamu harus bernilai total minimal {opening} poin; "
        "sebelum itu kombinasi hanya diusulkan dan dapat ditarik kembali (R13). "
        "Setelah itu kamu boleh menambahkan kartu pada kombinasi mana pun dan menukar Joker dengan "
        "kartu yang diwakilinya (R14-R16).\n"
        "**Mengosongkan tangan:** ronde berakhir ketika seorang pemain telah mengosongkan tangannya "
        "(R17). **Poin:** 2-10 sesuai angka, J Q K 10, A 1 atau 11, Joker di tangan 20 (R2)."
    ),
    "rules.book": (
        "Semua aturan beserta nomornya (R1-R22) ada di buku aturan, docs/rules.id.md di kode sumber bot."
    ),
    "rules.house_rules": "Aturan meja permainan ini",
    "rules.default_house_rules": "Aturan meja bawaan",
    "rules.book.link": "Semua aturan beserta nomornya (R1-R22) ada di [buku aturan]({url}).",
    # --- penolakan dan kesalahan (masing-masing menyebut apa yang salah) ---
    "refusal": "⚠️ {text}",
    "error.unknown": "Langkah itu tidak diperbolehkan.",
    "error.unexpected": "Maaf, terjadi kesalahan. Permainan tidak berubah; silakan coba lagi.",
    "error.bad_component": "Tombol ini sudah tidak berlaku.",
    "error.click.other_server": "Tombol ini milik permainan di server lain.",
    "error.click.other_channel": "Tombol ini milik permainan di saluran lain.",
    "error.click.cannot_view": "Kamu tidak dapat melihat saluran permainan ini.",
    "error.click.other_message": "Tombol ini tidak berada di pesan permainannya.",
    # mesin: urutan giliran dan tahapannya
    "error.turn.not_your_turn": "Sekarang bukan giliranmu.",
    "error.turn.must_draw": "Ambil kartu dulu.",
    "error.turn.already_drawn": "Kamu sudah mengambil kartu pada giliran ini.",
    "error.turn.sitting_out": "Kamu tidak ikut ronde penentuan ini.",
    "error.round.over": "Ronde telah berakhir.",
    "error.card.not_in_hand": "Kartu itu tidak ada di tanganmu.",
    "error.discard.taken_card": (
        "Kartu yang kamu ambil dari tumpukan buangan tidak boleh dibuang pada giliran ini."
    ),
    "error.discard.must_keep_last": (
        "Kamu harus menyisakan satu kartu untuk dibuang: kartu terakhirmu tidak bisa dipakai di sini."
    ),
    "error.opening.not_opened": (
        "Turunkan kombinasi pertama dulu: hanya pemain yang sudah turun yang boleh menambahkan kartu atau "
        "menukar Joker."
    ),
    # mesin: kombinasi (R7-R10)
    "error.meld.too_short": "Kombinasi membutuhkan setidaknya tiga kartu.",
    "error.meld.mixed_suits": "Run harus terdiri dari satu jenis.",
    "error.meld.repeated_suit": "Set tidak boleh mengandung dua kartu dengan jenis yang sama.",
    "error.meld.not_consecutive": "Kartu dalam run harus berurutan.",
    "error.meld.around_corner": "Run tidak boleh berputar melewati As (K-A-2).",
    "error.meld.too_many_jokers": (
        "Kombinasi dengan dua Joker atau lebih harus memiliki setidaknya dua kartu asli (bukan Joker)."
    ),
    "error.meld.jokers_only": "Kombinasi yang hanya berisi Joker tidak diperbolehkan.",
    "error.meld.too_long": "Kombinasi itu akan terlalu panjang.",
    "error.meld.mixed_ranks": "Set harus terdiri dari kartu bernilai sama.",
    "error.meld.repeated_rank": "Run tidak boleh memiliki nilai yang sama dua kali.",
    "error.meld.invalid": "Kartu-kartu itu tidak membentuk kombinasi.",
    "error.swap.not_replaceable": "Kartu itu tidak dapat menggantikan Joker di kombinasi ini.",
    "error.swap.no_card": "Pilih kartu yang akan menggantikan Joker.",
    "error.layoff.no_cards": "Pilih setidaknya satu kartu untuk ditambahkan.",
    "error.lay_off.no_cards": "Pilih setidaknya satu kartu untuk ditambahkan.",
    "error.layoff.no_room": "Kartu-kartu itu tidak cocok untuk kombinasi tersebut.",
    "error.layoff.bad_end": "Joker ditambahkan di ujung bawah atau ujung atas sebuah run.",
    "error.layoff.joker_holds_place": "Tempat itu diisi Joker: pasang kartunya dengan **Tukar Joker**.",
    "error.table.no_such_meld": "Kombinasi itu tidak ada di meja.",
    "error.take_back.nothing_pending": "Kamu tidak punya kombinasi usulan untuk ditarik kembali.",
    "error.opening.no_card_left": (
        "Kamu tidak akan punya kartu untuk dibuang sebelum kombinasi pertamamu lengkap."
    ),
    "error.draw.discard_empty": "Tumpukan buangan kosong.",
    "error.draw.no_such_pile": "Ambil kartu dari tumpukan undian atau dari tumpukan buangan.",
    "error.discard.no_card": "Pilih kartu yang akan dibuang.",
    "error.match.over": "Permainan telah berakhir.",
    "error.seat.unknown": "Pemain itu tidak ada.",
    "error.seats.count": "Permainan membutuhkan 2 sampai 6 pemain.",
    # layanan meja
    "error.game.none_here": "Tidak ada permainan di saluran ini. Mulai dengan /romme start.",
    "error.game.exists": "Saluran ini sudah punya permainan (permainan {game_id}).",
    "error.thread.inside": "Ini sudah utas: mulai permainan di sini tanpa opsi `utas`.",
    "error.thread.not_here": "Permainan di utas sendiri dimulai dari saluran teks.",
    "error.thread.cannot_open": "Aku tidak bisa membuka utas di sini, jadi tidak ada permainan yang dimulai.",
    "error.bot_permission": (
        "Aku tidak bisa menjalankan meja di sini: aku butuh izin ini di saluran ini: {permissions}."
    ),
    "permission.view_channel": "Lihat Saluran",
    "permission.send_messages": "Kirim Pesan",
    "permission.embed_links": "Sematkan Tautan",
    "permission.read_message_history": "Baca Riwayat Pesan",
    "permission.create_public_threads": "Buat Utas Publik",
    "permission.send_messages_in_threads": "Kirim Pesan di Utas",
    "error.game.not_running": "Permainan ini tidak sedang berjalan.",
    "error.game.not_finished": "Permainan ini belum selesai.",
    "error.game.changed": (
        "Permainan ini baru saja diubah di tempat lain; sekarang sudah diperbarui. Silakan coba lagi."
    ),
    "error.lobby.closed": "Lobi sudah ditutup: permainan ini sudah dimulai atau sudah berakhir.",
    "error.round.not_over": "Ronde belum berakhir.",
    "error.seat.not_seated": "Kamu tidak ikut permainan ini.",
    "error.seat.already_seated": "Kamu sudah ikut permainan ini.",
    "error.lobby.full": "Meja sudah penuh (6 pemain).",
    "error.lobby.not_host": "Hanya host yang boleh melakukannya.",
    "error.lobby.host_limit": (
        "Kamu sudah menjadi host {seats} lobi terbuka di server ini: mulai atau batalkan salah satunya dulu."
    ),
    "error.lobby.too_few": "Permainan membutuhkan setidaknya 2 pemain.",
    "error.turn.not_yours": "Sekarang bukan giliranmu.",
    "error.panel.stale": "Panel ini sudah usang; ini panel yang baru.",
    "error.stop.not_allowed": (
        "Hanya host atau anggota dengan izin Kelola Server yang dapat menghentikan permainan."
    ),
    # riwayat, pengaturan, penyimpanan, dan formulir
    "error.replay.not_found": (
        "Tidak ada permainan selesai bernomor {game_id} yang bisa kamu lihat di server ini."
    ),
    "error.replay.running": "Permainan {game_id} masih berlangsung: replay-nya bisa dibuka setelah selesai.",
    "error.replay.none": (
        "Permainan {game_id} tidak punya replay: langkahnya sudah tidak disimpan, atau dimainkan sebelum "
        "ada replay."
    ),
    "error.settings.not_allowed": (
        "Hanya anggota dengan izin Kelola Server atau peran pengelola permainan yang dapat mengubah "
        "pengaturan ini."
    ),
    "error.settings.not_a_number": (
        "Nilai “{value}” untuk {setting} bukan angka bulat. Tidak ada yang diubah."
    ),
    "error.settings.out_of_range": (
        "Nilai {value} di luar batas untuk {setting}, harus dari {low} sampai {high}. Tidak ada yang diubah."
    ),
    "error.settings.bad_value": "Pilihan untuk {setting} itu tidak tersedia. Tidak ada yang diubah.",
    "error.settings.other_server": "Panel ini milik server lain. Tidak ada yang diubah.",
    "error.settings.not_yours": "Panel ini milik anggota lain. Buka milikmu dengan /romme preferences.",
    "error.settings.channel_elsewhere": "{channel} bukan saluran di server ini. Tidak ada yang diubah.",
    "error.settings.role_gone": "Peran itu sudah tidak ada di server ini. Tidak ada yang diubah.",
    "error.settings.role_needs_manage_server": (
        "Hanya anggota dengan izin Kelola Server yang dapat memilih atau menghapus peran pengelola "
        "permainan. Tidak ada yang diubah."
    ),
    "error.settings.role_everyone": (
        "`@everyone` tidak bisa menjadi peran pengelola permainan: setiap anggota akan mengelola semua "
        "permainan di server ini. Tidak ada yang diubah."
    ),
    "error.settings.role_managed": (
        "{role} milik bot atau aplikasi terhubung dan diberikan secara otomatis, jadi tidak bisa menjadi "
        "peran pengelola permainan. Tidak ada yang diubah."
    ),
    "error.settings.role_above_bot": (
        "{role} tidak berada di bawah peran tertinggi bot, jadi tidak bisa menjadi peran pengelola "
        "permainan. Pilih peran yang lebih rendah. Tidak ada yang diubah."
    ),
    "error.start.channel_not_allowed": (
        "Permainan tidak dapat dimulai di saluran ini. Mulailah di: {channels}"
    ),
    "error.game.moved": "Meja ini sekarang dijalankan oleh proses bot yang lain. Silakan coba lagi.",
    "error.bad_form": "Formulir ini sudah tidak berlaku. Tidak ada yang diubah.",
    "error.replay.no_round": "Ronde itu tidak ada dalam permainan ini.",
    "error.command.bad_option": "Perintah ini tidak menerima nilai itu. Tidak ada yang diubah.",
    # --- perintah slash seperti yang ditampilkan Discord (nama perintah tetap /romme …) ---
    "slash.group": "Main Rommé (Rummy Jerman) di saluran ini",
    "slash.start": "Buka meja di saluran ini dan tunggu pemain",
    "slash.join": "Gabung ke meja di saluran ini",
    "slash.leave": "Tinggalkan meja; dalam permainan yang berjalan, komputer menggantikanmu",
    "slash.hand": "Tampilkan kartu di tanganmu, hanya untukmu, dengan tombol untuk memainkannya",
    "slash.score": "Klasemen permainan di saluran ini, server, atau satu pemain",
    "slash.rules": "Aturan singkat dan aturan meja permainan ini",
    "slash.stop": "Akhiri permainan di saluran ini (host atau Kelola Server)",
    "slash.option.jokers": "joker",
    "slash.option.opening": "kombinasi_pertama",
    "slash.option.scoring": "skor",
    "slash.option.hand_romme": "hand_romme",
    "slash.option.discard_to_go_out": "buang_untuk_selesai",
    "slash.option.rounds": "ronde",
    "slash.option.computers": "komputer",
    "slash.option.computer_level": "tingkat_komputer",
    "slash.option.turn_timeout": "waktu_giliran",
    "slash.option.language": "bahasa",
    "slash.option.thread": "utas",
    "slash.option.scope": "cakupan",
    "slash.option.user": "anggota",
    "slash.describe.jokers": "Jumlah Joker di dek (bawaan {default})",
    "slash.describe.opening": "Total poin minimal kombinasi pertama (bawaan {default})",
    "slash.describe.scoring": "Cara menghitung skor ronde (bawaan: kombinasi dikurangi kartu di tangan)",
    "slash.describe.hand_romme": (
        "Mengosongkan tangan sekaligus tanpa turun sebelumnya: poin tangan lawan digandakan (bawaan nonaktif)"
    ),
    "slash.describe.discard_to_go_out": (
        "Kartu terakhir harus dibuang untuk mengosongkan tangan (bawaan nonaktif)"
    ),
    "slash.describe.rounds": (
        "Jumlah ronde (bawaan: satu per pemain, jadi setiap pemain menjadi dealer sekali)"
    ),
    "slash.describe.computers": "Pemain komputer yang langsung ikut bermain (bawaan 0)",
    "slash.describe.computer_level": (
        "Seberapa kuat komputer bermain, juga yang ditambahkan nanti (bawaan biasa)"
    ),
    "slash.describe.turn_timeout": (
        "Detik untuk satu giliran sebelum komputer memainkannya (bawaan: setelan bot)"
    ),
    "slash.describe.language": (
        "Bahasa meja (bawaan: bahasa server, atau Inggris jika bahasa server tidak didukung)"
    ),
    "slash.describe.thread": "Main di utas sendiri yang dibuka dari saluran ini (bawaan: nonaktif)",
    "slash.describe.scope": "Apa yang ditampilkan (bawaan: permainan di saluran ini)",
    "slash.describe.user": "Tampilkan catatan anggota ini di server",
    "slash.choice.jokers": "{count} Joker",
    "slash.choice.scoring_melds": "Kombinasi dikurangi kartu di tangan (standar)",
    "slash.choice.scoring_penalty": "Penalti: hanya kartu di tangan yang dihitung, sebagai poin minus",
    "slash.choice.level_easy": "Mudah: membuat kesalahan pemula",
    "slash.choice.level_normal": "Biasa",
    "slash.choice.level_hard": "Sulit: bermain seperti pemain berpengalaman",
    "slash.choice.scope_channel": "Permainan di saluran ini, ronde demi ronde",
    "slash.choice.scope_server": "Papan peringkat server",
    "slash.history": "Permainan terakhir yang selesai di server ini, masing-masing dengan replay-nya",
    "slash.replay": "Tonton lagi permainan yang sudah selesai, langkah demi langkah",
    "slash.option.member": "anggota",
    "slash.describe.member": "Hanya permainan yang dimainkan anggota ini",
    "slash.option.game": "permainan",
    "slash.describe.game": "Permainan yang ingin ditonton (nomornya)",
    "slash.settings": "Bawaan server ini untuk permainan baru (Kelola Server atau peran pengelola permainan)",
    "slash.preferences": "Pilihanmu sendiri di setiap server: kartu sebagai teks, urutan, bahasa, sebutan",
    "slash.help": "Cara bermain, satu giliran langkah demi langkah, dan daftar perintah",
    "slash.profile": "Rating, peringkat, dan statistik seorang anggota di server ini",
    "slash.season": "Mulai musim rating baru di server ini (Kelola Server)",
    "slash.describe.profile_member": "Profil siapa yang ditampilkan (bawaan: milikmu)",
    "slash.option.season": "musim",
    "slash.describe.season": "Tampilkan klasemen akhir musim ini (nomornya)",
}
