"""devtools.site_diff: the before/after comparison of two built sites."""

import gzip

from devtools.site_diff import differences, main


def write(root, name, data):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_identical_sites_report_nothing(tmp_path, capsys):
    for side in ("a", "b"):
        write(tmp_path / side, "index.html", b"<p>same</p>")
        write(tmp_path / side, "sitemap.xml.gz", gzip.compress(b"<urlset/>", mtime=len(side)))
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert "identical" in capsys.readouterr().out


def test_each_kind_of_difference_is_named(tmp_path):
    write(tmp_path / "a", "gone.html", b"x")
    write(tmp_path / "b", "new.html", b"x")
    write(tmp_path / "a", "page.html", b"<p>the old words</p>")
    write(tmp_path / "b", "page.html", b"<p>the new words</p>")
    found = list(differences(tmp_path / "a", tmp_path / "b"))
    assert found[0] == "only before: gone.html"
    assert found[1] == "only after: new.html"
    assert found[2].startswith("differs: page.html at byte 7:")
    assert "old words" in found[2]
    assert "new words" in found[2]
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1


def test_a_digest_name_is_compared_as_a_digest(tmp_path):
    write(tmp_path / "a", "assets/python-0123456789abcdef0123.gz", gzip.compress(b"image"))
    write(tmp_path / "b", "assets/python-fedcba9876543210fedc.gz", gzip.compress(b"image"))
    write(tmp_path / "a", "index.html", b'"snapshot": "assets/python-0123456789abcdef0123.gz"')
    write(tmp_path / "b", "index.html", b'"snapshot": "assets/python-fedcba9876543210fedc.gz"')
    assert list(differences(tmp_path / "a", tmp_path / "b")) == []
    write(tmp_path / "b", "assets/python-fedcba9876543210fedc.gz", gzip.compress(b"other image"))
    assert [line.split(" at ")[0] for line in differences(tmp_path / "a", tmp_path / "b")] == [
        "differs: assets/python-<digest>.gz"
    ]
