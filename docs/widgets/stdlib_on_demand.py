"""The standard library's archive on demand, for a Python restored from the memory snapshot.

A restored Python has already imported everything the page's code needs at start (the
package, the session runtime and what they import are in the image), so the worker does not
download ``python_stdlib.zip`` (2.5 MB) to start it: the file system gets an empty archive
in its place. Only when code imports a module that is not in memory yet (the reader's own
``import difflib``, say), or a traceback needs the source lines of a standard module, does
the worker fetch the real archive (``install``: a synchronous request that only the worker
waits for) into the place of the empty one; the import then goes on as in a normal boot. If
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
        """Placed just before the path finder: the first import it sees brings the archive."""

        @classmethod
        def ensure(cls):
            if cls not in sys.meta_path:
                return
            install()
            sys.meta_path.remove(cls)
            importlib.invalidate_caches()  # the zip importer reads the real archive's directory

        @classmethod
        def find_spec(cls, name, path=None, target=None):
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
        if filename.startswith(archive + "/"):
            with contextlib.suppress(Exception):  # the traceback goes without those lines
                StdlibOnDemand.ensure()
        return update(filename, module_globals)

    linecache.updatecache = updatecache
