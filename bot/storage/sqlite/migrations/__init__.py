"""The SQLite schema's migrations, applied in order by :mod:`bot.storage.sqlite.schema`.

Each file is ``NNNN_what.sql``; ``NNNN`` is the ``PRAGMA user_version`` the database has once the
file has run. Never edit a released file: add the next number.
"""
