// The standard library in parts: Python starts with an archive that holds only what the
// page's code reads at start (an empty one after a memory-image restore, worker-snapshot.js;
// python_stdlib_core.zip on a normal boot, worker-boot.js), and the whole of
// python_stdlib.zip comes when code first needs a module that is not there
// (stdlib_on_demand.py; docs/widgets/README.md, "The memory snapshot").
import stdlibOnDemandSource from "../python/stdlib_on_demand.py";
import { readSiteBytes } from "./worker-network.js";
import { PYODIDE_DIR } from "./worker-urls.js";

/**
 * Installs stdlib_on_demand.py's finder in a Python that started with part of the standard
 * library: the first import of a module that part does not hold downloads python_stdlib.zip
 * (synchronously: Python is waiting in the middle of an import, and only this worker waits)
 * into the place of the partial archive.
 */
export function stdlibOnDemand(pyodide) {
  const archive = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))");
  const install = () => {
    pyodide.FS.writeFile(archive, readSiteBytes(new URL("python_stdlib.zip", PYODIDE_DIR)));
  };
  pyodide.runPython(stdlibOnDemandSource);
  const setUp = pyodide.globals.get("_stdlib_on_demand");
  pyodide.runPython("del _stdlib_on_demand");
  setUp(install);
  setUp.destroy();
}
