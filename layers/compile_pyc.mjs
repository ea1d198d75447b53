// Compile every module under a layer's site directory to CPython 3.12 bytecode, with
// CPython 3.12 itself: Pyodide is CPython built for WebAssembly, and Node runs it here.
//
//   node layers/compile_pyc.mjs <pyodide package dir> <site dir>
//
// The site directory is mounted into Pyodide's file system and compiled in place, with
// unchecked-hash pycs (see layers/build.py). Prints the compiler's Python version last.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [, , pyodideDir, site] = process.argv;
// ES modules ignore NODE_PATH: load the package from where layers/build.py installed it.
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir.endsWith("/") ? pyodideDir : `${pyodideDir}/` });
pyodide.FS.mkdirTree("/layer");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/layer");
pyodide.globals.set("site", "/layer");
const result = pyodide.runPython(`
import compileall, py_compile, sys
ok = compileall.compile_dir(
    site, quiet=1, workers=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
)
f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}" if ok else ""
`);
if (!result) {
  console.error("compileall reported a module it could not compile");
  process.exit(1);
}
console.log(result);
