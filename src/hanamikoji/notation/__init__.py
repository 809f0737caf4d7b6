"""Notation and records: edition names (EN 2016/2018, ES, FR, JA, ZH-Hant), seats and
outcomes in English, and game records (text, JSON)."""

from hanamikoji.notation.records import (
    RECORD_SUFFIX,
    GameRecord,
    RecordError,
    RecordRound,
    read_record,
    write_record,
)

__all__ = [
    "RECORD_SUFFIX",
    "GameRecord",
    "RecordError",
    "RecordRound",
    "read_record",
    "write_record",
]
