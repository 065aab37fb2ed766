// Build step of the static edition (tartli/site/builder.py): a Pyodide memory snapshot of a kernel that has
// started, made in Node.js with the site's own Pyodide, lock file and wheels.
//
//   node make_snapshot.mjs RUNTIME_DIR OUT PRELOAD MODULES   (run from a folder without tartli/)
//
// PRELOAD: the packages the kernel loads (comma-separated); MODULES: the modules to import before
// the snapshot (comma-separated), then `import pyodide_kernel` makes the IPython shell and kernel.
// Writes OUT.bin.gz (the snapshot) and OUT-files.bin.gz (the site-packages files as one archive:
// the file system is not part of a memory snapshot). The worker's side is snapshot-loader.js.
import { writeFileSync, writeSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [runtime, out, preload, modules] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: runtime + "/",
  packages: preload.split(","),
  _makeSnapshot: true,
  env: { HOME: "/home/pyodide" }, // the browser's worker has no host environment to pass on
});

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

run(`import importlib\nfor name in ${JSON.stringify(modules.split(","))}: importlib.import_module(name)`);
run("import pyodide_kernel");
// A widget made now would open a comm that no page ever hears of: the course makes none at import.
run("from ipywidgets import Widget\nassert not Widget.widgets, f'widgets made at import: {list(Widget.widgets)}'");
run("del _code, _failure, _tb\nimport gc\ngc.collect()");

// Python holds a few JS objects (pyodide_kernel and micropip import functions of the pyodide API).
// The snapshot stores each as its path from the pyodide object; the worker's deserializer gives
// stand-ins that reach the live API. Anything else held makes the build fail.
const paths = new Map([[py, "pyodide"]]);
function index(root, name) {
  for (const key of Reflect.ownKeys(root)) {
    if (typeof key !== "string") continue;
    let value;
    try {
      value = root[key];
    } catch {
      continue;
    }
    if (value && (typeof value === "object" || typeof value === "function") && !paths.has(value)) {
      paths.set(value, `${name}.${key}`);
    }
  }
}
index(py, "pyodide");
index(py._api, "pyodide._api");
// Pyodide expects pyodide.loadedPackages to be as empty as at boot; the worker fills it again.
const loaded = { ...py.loadedPackages };
for (const key of Object.keys(loaded)) delete py.loadedPackages[key];
const held = [];
const snapshot = py.makeMemorySnapshot({
  serializer: (obj) => {
    const path = paths.get(obj);
    if (!path) throw new Error(`a JS object held by Python cannot be stored: ${String(obj).slice(0, 80)}`);
    held.push(path);
    return path;
  },
});
Object.assign(py.loadedPackages, loaded);
writeFileSync(out + ".bin.gz", gzipSync(snapshot, { level: 6 }));

// The site-packages files: [u32 length of the index][index JSON][file bytes...]. The bytecode of
// modules already imported in the snapshot is left out: it is never read again.
const inSnapshot = new Set(
  py.runPython(`
import sys
sorted({getattr(m, "__cached__", None) or "" for m in list(sys.modules.values())} - {""})
`).toJs(),
);
const root = "/lib/python3.13/site-packages";
const dirs = [];
const files = [];
const chunks = [];
(function walk(dir) {
  dirs.push(dir);
  for (const name of py.FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const path = `${dir}/${name}`;
    if (py.FS.isDir(py.FS.stat(path).mode)) walk(path);
    else if (!inSnapshot.has(path)) {
      const data = py.FS.readFile(path);
      files.push([path, data.length]);
      chunks.push(data);
    }
  }
})(root);
const head = new TextEncoder().encode(JSON.stringify({ dirs, files, loaded }));
const size = new Uint8Array(4);
new DataView(size.buffer).setUint32(0, head.length, true);
writeFileSync(out + "-files.bin.gz", gzipSync(Buffer.concat([size, head, ...chunks]), { level: 6 }));
console.log(
  JSON.stringify({ snapshot: snapshot.length, files: files.length, held: [...new Set(held)].sort() }),
);
