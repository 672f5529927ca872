#!/usr/bin/env python3
"""Other tools search the toolkit's database with no extra step (issue 11).

    check_search.py DATABASE WORD ID...

Datasette (through its in-process client, no port) must show the search box on the photo
table and find exactly the photos IDS for WORD; sqlite-utils' `search`, and MATCH on
photo_fts through Python's SQLite and through the sqlite3 shell, must find the same ones. Prints "all checks passed" or the failures.
"""
import asyncio
import os
import sqlite3
import subprocess
import sys


def main():
    database, word, expected = sys.argv[1], sys.argv[2], sorted(sys.argv[3:])
    failures = []

    # sqlite3 (Python's own SQLite): the FTS5 table answers a MATCH joined to photo.
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "SELECT photo.id FROM photo_fts JOIN photo ON photo.rowid = photo_fts.rowid "
            "WHERE photo_fts MATCH ? ORDER BY photo.id", [word]).fetchall()
    if sorted(r[0] for r in rows) != expected:
        failures.append(f"sqlite3 MATCH {word!r}: {sorted(r[0] for r in rows)} != {expected}")

    # The sqlite3 command-line shell, as a person would type it (the word bound, not spliced).
    shell = subprocess.run(["sqlite3", "-readonly", database],
                           input=f".parameter set @word '{word}'\n"
                                 "SELECT photo.id FROM photo_fts JOIN photo ON photo.rowid = photo_fts.rowid "
                                 "WHERE photo_fts MATCH @word ORDER BY photo.id;\n",
                           capture_output=True, text=True)
    ids = sorted(shell.stdout.split()) if shell.returncode == 0 and not shell.stderr else None
    if ids != expected:
        failures.append(f"sqlite3 shell MATCH {word!r}: {ids} != {expected} ({shell.stderr.strip()})")

    # sqlite-utils finds the FTS table of photo by itself.
    found = subprocess.run([sys.executable, "-m", "sqlite_utils", "search", database, "photo", word, "-c", "id", "--csv"],
                           capture_output=True, text=True)
    ids = sorted(found.stdout.split()[1:]) if found.returncode == 0 else None
    if ids != expected:
        failures.append(f"sqlite-utils search {word!r}: {ids} != {expected} ({found.stderr.strip()})")

    # Datasette: the search box on the table page, and ?_search= answering.
    from datasette.app import Datasette

    async def ask():
        datasette = Datasette([database])
        name = os.path.splitext(os.path.basename(database))[0]
        page = await datasette.client.get(f"/{name}/photo")
        answer = await datasette.client.get(f"/{name}/photo.json?_search={word}&_col=id&_shape=array")
        return page, answer

    page, answer = asyncio.run(ask())
    search_box = 'name="_search"' in page.text
    if page.status_code != 200 or not search_box:
        failures.append(f"datasette /photo: status {page.status_code}, search box {search_box}")
    ids = sorted(row["id"] for row in answer.json()) if answer.status_code == 200 else answer.text[:200]
    if ids != expected:
        failures.append(f"datasette ?_search={word}: {ids} != {expected}")

    if failures:
        print("\n".join(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
