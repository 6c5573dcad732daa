"""Loads the page's session runtime (session_runtime.py) as the module ``_session_runtime``.

One source for both places that do it: the page's worker (worker-boot.js imports this file
as text and runs it after a normal boot) and the maker of the memory snapshot
(site_hooks/assets/make_snapshot.mjs runs it before taking the image). So the runtime a restored page
finds is loaded exactly as a normal boot loads it; this file is part of the snapshot's key
(site_hooks/assets/snapshot.py), so a change here makes a new image.

Running this file defines one function in ``__main__`` and nothing else; the caller takes it
and deletes the name.
"""


def _load_session_runtime(source):
    import sys
    import types

    module = types.ModuleType("_session_runtime")
    module.__file__ = "/live-cells/session_runtime.py"  # names the runtime's frames in tracebacks
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    sys.modules[module.__name__] = module
    return module
