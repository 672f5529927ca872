"""Files for bin/bench's cases: databases (copied, removed, asked), lists of ids, curl configs."""

import json
import os
import sqlite3


def remove_database(path):
    """A database file and its WAL, shared-memory and lock companions."""
    for suffix in ("", "-wal", "-shm", "-journal", ".lock"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def copy_database(source, destination):
    """A consistent copy through SQLite's backup API (the source may be in WAL mode)."""
    remove_database(destination)
    with sqlite3.connect(source) as src, sqlite3.connect(destination) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def sqlite_value(database, sql):
    connection = sqlite3.connect(database)
    try:
        return connection.execute(sql).fetchone()[0]
    finally:
        connection.close()


def sqlite_rows(database, sql):
    connection = sqlite3.connect(database)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def write_first_record(records, path):
    """The first line of the file `records` into `path`; returns `path`. regions-load makes
    a database with its first batch, so a case that needs one without its photos loads this
    (one photo) first."""
    with open(records, "rb") as source, open(path, "wb") as out:
        out.write(source.readline())
    return path


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(f"{line}\n" for line in lines)
    return path


def curl_command(config_path, urls, parallel):
    """curl fetching urls to /dev/null, `parallel` at once (a config file: no argv limit)."""
    with open(config_path, "w", encoding="utf-8") as config:
        for url in urls:
            config.write(f'url = "{url}"\noutput = "/dev/null"\n')
    return ["curl", "--silent", "--show-error", "--fail", "--parallel", "--parallel-max", str(parallel),
            "--config", config_path]


def directory_bytes(path):
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(path) for name in names)


def cut_to_places(source, destination, places):
    """Keeps the records of the first `places` distinct place ids (in input order); returns
    how many distinct places the source had, if fewer."""
    chosen = set()
    with open(source, encoding="utf-8") as records, open(destination, "w", encoding="utf-8") as out:
        for line in records:
            place = json.loads(line).get("place_id")
            if place is None:
                continue
            if place not in chosen and len(chosen) < places:
                chosen.add(place)
            if place in chosen:
                out.write(line)
    return len(chosen)
