"""The build's cache of products (site_hooks/assets/products.py): a new version of a product
prunes that product's older versions, and never another product whose name starts the same
("training-en" and "training-en-runs")."""

from __future__ import annotations

from site_hooks.assets import products


def test_a_new_version_prunes_its_own_old_versions_only(tmp_path, monkeypatch):
    monkeypatch.setattr(products, "CACHE_ROOT", tmp_path)

    def write(folder):
        (folder / "out.txt").write_text("made", encoding="utf-8")

    old = products.cached_product("training-en", "a" * 64, write)
    runs = products.cached_product("training-en-runs", "b" * 64, write)
    giveaway = products.cached_product("training-en-giveaway", "c" * 64, write)
    new = products.cached_product("training-en", "d" * 64, write)
    assert new.is_dir()
    assert not old.exists(), "the old version of the product is pruned"
    assert runs.is_dir(), "products whose names start the same are kept"
    assert giveaway.is_dir()
    assert products.cached_product("training-en", "d" * 64, lambda folder: None) == new, "cached: not made again"
