// Build step of the static edition (tartli/site/builder.py): a Pyodide memory snapshot of a kernel that has
// started, made in Node.js with the site's own Pyodide, lock file and wheels.
//
//   node make_snapshot.mjs RUNTIME_DIR OUT PRELOAD MODULES HELPER   (run from a folder without tartli/)
//
// PRELOAD: the packages the kernel loads (comma-separated); MODULES: the modules to import before
// the snapshot (comma-separated), then `import pyodide_kernel` makes the IPython shell and kernel;
// HELPER: tartli/site/snapshot.py, which says what a page still reads from its file system.
// Writes, uncompressed (the build compresses every large file of the site afterwards):
//   OUT.bin         the snapshot (Python's memory);
//   OUT-files.bin   the site-packages files a page needs, as one archive (the file system is not
//                   part of a memory snapshot);
//   OUT-stdlib.zip  the standard library's zip without the modules the snapshot has imported.
// and prints a JSON summary. The worker's side is snapshot-loader.js.
import { readFileSync, writeFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [runtime, out, preload, modules, helper] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: runtime + "/",
  packages: preload.split(","),
  _makeSnapshot: true,
  env: { HOME: "/home/pyodide" }, // the browser's worker has no host environment to pass on
});
const M = py._module;

function run(code) {
  py.globals.set("_code", code);
  const failure = py.runPython(`
import traceback as _tb
try:
    exec(_code, globals())
    _failure = ""
except BaseException:
    _failure = _tb.format_exc()
_failure`);
  if (failure) {
    writeSync(2, failure);
    process.exit(1);
  }
}

// dlmalloc's own figures (struct mallinfo: arena, ..., uordblks = bytes in use, fordblks = bytes free).
function mallinfo() {
  const p = M._PyMem_RawMalloc(64);
  M._mallinfo(p);
  const f = M.HEAPU32.subarray(p >> 2, (p >> 2) + 10);
  const info = { inUse: f[7], free: f[8] };
  M._PyMem_RawFree(p);
  return info;
}

run(`import importlib\nfor name in ${JSON.stringify(modules.split(","))}: importlib.import_module(name)`);
run("import pyodide_kernel");
// A widget made now would open a comm that no page ever hears of: the course makes none at import.
run("from ipywidgets import Widget\nassert not Widget.widgets, f'widgets made at import: {list(Widget.widgets)}'");

// What a page still reads from its file system (tartli/site/snapshot.py, run as a module of its own
// and dropped again, so that the snapshot does not hold it).
py.globals.set("_helper", readFileSync(helper, "utf8"));
run(`
import sys, types
_snap = types.ModuleType("_tartli_snapshot")
exec(_helper, _snap.__dict__)
_site_packages = next(p for p in sys.path if p.endswith("site-packages"))
_stdlib = next(p for p in sys.path if p.endswith(".zip"))
_dirs, _files, _cut = _snap.archive_files(_site_packages)
_stdlib_kept, _stdlib_cut = _snap.trim_stdlib(_stdlib, "/tmp/stdlib.zip")
`);
const stdlibPath = py.globals.get("_stdlib");
writeFileSync(out + "-stdlib.zip", py.FS.readFile(stdlibPath));
function fromPython(name) {
  const proxy = py.globals.get(name);
  const value = proxy.toJs();
  proxy.destroy(); // a proxy left alive would keep its Python object in the snapshot
  return value;
}
const dirs = fromPython("_dirs");
const paths = fromPython("_files");
const cutFound = fromPython("_cut");
const cut = cutFound instanceof Map ? Object.fromEntries(cutFound) : cutFound;
const stdlib = { kept: py.globals.get("_stdlib_kept"), cut: py.globals.get("_stdlib_cut") };
// A module of the standard library that no page has imported yet still imports from the trimmed zip.
run("import importlib.util\nassert importlib.util.find_spec('wave') is not None, 'the trimmed zip lost wave'");
run("del _snap, _helper, _dirs, _files, _cut, _stdlib, _stdlib_kept, _stdlib_cut, _site_packages");
run("del _code, _failure, _tb\nimport gc\ngc.collect()");

// The site-packages files: [u32 length of the index][index JSON][file bytes...].
const files = [];
const chunks = [];
for (const path of paths) {
  const data = py.FS.readFile(path);
  files.push([path, data.length]);
  chunks.push(data);
}

// Python holds a few JS objects (pyodide_kernel and micropip import functions of the pyodide API).
// The snapshot stores each as its path from the pyodide object; the worker's deserializer gives
// stand-ins that reach the live API. Anything else held makes the build fail.
const known = new Map([[py, "pyodide"]]);
function index(root, name) {
  for (const key of Reflect.ownKeys(root)) {
    if (typeof key !== "string") continue;
    let value;
    try {
      value = root[key];
    } catch {
      continue;
    }
    if (value && (typeof value === "object" || typeof value === "function") && !known.has(value)) {
      known.set(value, `${name}.${key}`);
    }
  }
}
index(py, "pyodide");
index(py._api, "pyodide._api");
// Pyodide expects pyodide.loadedPackages to be as empty as at boot; the worker fills it again.
const loaded = { ...py.loadedPackages };
for (const key of Object.keys(loaded)) delete py.loadedPackages[key];

// Memory that malloc holds free, and the memory above its top (sbrk), keep whatever was there
// before: the imports' garbage, which compresses badly. It is zeroed: the free blocks by taking
// them all (a footprint limit makes malloc fail rather than grow the memory), writing zeros and
// freeing them again; the top by writing zeros. Python's state does not change.
const before = mallinfo();
const footprint = M._malloc_footprint();
M._malloc_set_footprint_limit(footprint);
const taken = [];
for (let size = 1 << 24; size >= 16; size >>= 1) {
  for (let p = M._PyMem_RawMalloc(size); p; p = M._PyMem_RawMalloc(size)) {
    M.HEAPU8.fill(0, p, p + size);
    taken.push(p);
  }
}
for (const p of taken) M._PyMem_RawFree(p);
M._malloc_set_footprint_limit(-1 >>> 0); // no limit, as before
if (M._malloc_footprint() !== footprint) throw new Error("zeroing the free memory made the heap grow");
const top = M.HEAPU32[M._emscripten_get_sbrk_ptr() >> 2];
M.HEAPU8.fill(0, top);

const held = [];
const snapshot = py.makeMemorySnapshot({
  serializer: (obj) => {
    const path = known.get(obj);
    if (!path) throw new Error(`a JS object held by Python cannot be stored: ${String(obj).slice(0, 80)}`);
    held.push(path);
    return path;
  },
});
Object.assign(py.loadedPackages, loaded);
writeFileSync(out + ".bin", snapshot);

const head = new TextEncoder().encode(JSON.stringify({ dirs, files, loaded }));
const size = new Uint8Array(4);
new DataView(size.buffer).setUint32(0, head.length, true);
writeFileSync(out + "-files.bin", Buffer.concat([size, head, ...chunks]));
console.log(
  JSON.stringify({
    snapshot: snapshot.length,
    heapInUse: before.inUse,
    heapFreeZeroed: before.free,
    aboveTop: M.HEAPU8.length - top,
    files: files.length,
    filesCut: cut,
    stdlib,
    held: [...new Set(held)].sort(),
  }),
);
