"""The PostgreSQL schema's migrations, applied in order by :mod:`bot.storage.postgres.schema`.

Each file is ``NNNN_what.sql``; ``NNNN`` is the version in ``romme_schema`` once the file has run
(numbered apart from SQLite's). Never edit a released file: add the next number.
"""
