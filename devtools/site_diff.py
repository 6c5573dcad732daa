"""Compare two built sites file by file: what a reader would see differently.

A change meant to move code, not behaviour, must leave the built site byte-identical except
where the change says so. Build before and after (``./run build`` into two folders), then:

    .venv/bin/python -m devtools.site_diff BEFORE_SITE AFTER_SITE

It prints the files only in one site, and for each file in both whose bytes differ, the
first differing line of each (text) or the sizes (binary). Exit status 0 when the sites are
identical, 1 otherwise. Gzipped files are compared after inflating, since gzip's header
holds a time. A name made of its content's digest (``python-<20 hex digits>.gz``, the
memory image) differs whenever what it is made from does, and every page names it: such
names are compared as ``<digest>``, so a page differs only where something else does, and
the file itself is compared under its normalised name.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections.abc import Iterator
from pathlib import Path

CONTEXT = 120
"""Characters shown around the first difference of a text file."""

DIGEST_NAME = re.compile(rb"-[0-9a-f]{20}\.")
"""A file name's digest part, as the build writes content-addressed names."""


def normalised(name: bytes) -> bytes:
    return DIGEST_NAME.sub(b"-<digest>.", name)


def files_under(root: Path) -> dict[str, str]:
    """Every file below root: its normalised relative path -> its relative path."""
    found = {}
    for path in root.rglob("*"):
        if path.is_file():
            name = path.relative_to(root).as_posix()
            found[normalised(name.encode()).decode()] = name
    return found


def content(path: Path) -> bytes:
    """The file's bytes, inflated when it is gzip, with digest names normalised in text."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        return gzip.decompress(data)
    if b"\0" in data[:4096]:
        return data
    return normalised(data)


def first_difference(before: bytes, after: bytes) -> str:
    """Where two files first differ, shown as text around that place."""
    at = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    start = max(0, at - CONTEXT // 2)
    if b"\0" in before[:4096] or b"\0" in after[:4096]:
        return f"binary, {len(before):,} -> {len(after):,} bytes, first difference at byte {at:,}"
    old = before[start : at + CONTEXT // 2].decode("utf-8", "replace")
    new = after[start : at + CONTEXT // 2].decode("utf-8", "replace")
    return f"at byte {at:,}:\n    - {old!r}\n    + {new!r}"


def differences(before: Path, after: Path) -> Iterator[str]:
    """One line (or a few) for each file that is not the same in both sites."""
    old, new = files_under(before), files_under(after)
    for name in sorted(old.keys() - new.keys()):
        yield f"only before: {old[name]}"
    for name in sorted(new.keys() - old.keys()):
        yield f"only after: {new[name]}"
    for name in sorted(old.keys() & new.keys()):
        a, b = content(before / old[name]), content(after / new[name])
        if a != b:
            yield f"differs: {name} {first_difference(a, b)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    found = 0
    for line in differences(args.before, args.after):
        print(line)
        found += 1
    print(f"{found} difference(s)" if found else "the two sites are identical")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
