"""The standard library's archive on demand, for a Python that started with part of it.

The page's Python starts without downloading all of ``python_stdlib.zip`` (2.5 MB): restored
from the memory snapshot it has already imported everything the page's code needs at start,
so its file system gets an empty archive in that place; booted the normal way it gets
``python_stdlib_core.zip``, the files the page's code reads at start (about 0.8 MB,
site_hooks/assets/stdlib_core.py). Only when code imports a module the archive does not hold
(the reader's own ``import difflib``, say), or a traceback needs source lines it lacks, does
the worker fetch the whole archive (``install``: a synchronous request that only the worker
waits for) into the place of the partial one; the import then goes on as in a normal boot. If
the download fails, that import raises ImportError saying so, and the next one tries again.
"""


def _stdlib_on_demand(install):
    import contextlib
    import importlib
    import linecache
    import sys
    from importlib.machinery import PathFinder

    archive = next(entry for entry in sys.path if entry.endswith(".zip"))

    class StdlibOnDemand:
        """Placed just before the path finder: an import the path finder cannot satisfy with
        the archive as it is brings the whole archive, once."""

        @classmethod
        def ensure(cls):
            if cls not in sys.meta_path:
                return
            install()
            sys.meta_path.remove(cls)
            importlib.invalidate_caches()  # the zip importer reads the whole archive's directory

        @classmethod
        def find_spec(cls, name, path=None, target=None):
            found = PathFinder.find_spec(name, path, target)
            if found is not None:
                return found
            try:
                cls.ensure()
            except Exception as error:
                raise ImportError(
                    f"cannot import {name!r}: the standard library could not be downloaded ({error})"
                ) from None
            return None

    sys.meta_path.insert(sys.meta_path.index(PathFinder), StdlibOnDemand)

    # Tracebacks through standard modules show their source lines, read from the archive.
    update = linecache.updatecache

    def updatecache(filename, module_globals=None):
        lines = update(filename, module_globals)
        if lines or not filename.startswith(archive + "/"):
            return lines
        with contextlib.suppress(Exception):  # the traceback goes without those lines
            StdlibOnDemand.ensure()
        return update(filename, module_globals)

    linecache.updatecache = updatecache
