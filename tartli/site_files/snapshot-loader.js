// The static edition's start-up from a memory snapshot (see tartli/site.py), loaded by the Pyodide
// kernel's web worker (the build adds one call to the worker's loadPyodide). With the settings'
// loadPyodideOptions.snapshotURL it restores Python as make_snapshot.mjs left it (packages loaded,
// IPython, the kernel and the course imported) instead of loading and importing all of it again;
// the site-packages files come as one archive (snapshotFilesURL). If anything goes wrong the
// worker starts Python the usual way, from the wheels: slower, never broken.
(() => {
  let pyodide = null; // the live API, once loadPyodide has returned
  let files = null; // the site-packages archive, while it is being fetched

  // The JS objects Python held when the snapshot was made, stored as their path from the pyodide
  // API object ("pyodide", "pyodide.loadPackage", "pyodide._api.install"...): stand-ins that reach
  // the live API once it exists.
  function deserialize(path) {
    const at = () => path.split(".").slice(1).reduce((obj, key) => obj[key], pyodide);
    if (path === "pyodide") {
      return new Proxy({}, { get: (_, key) => Reflect.get(pyodide, key), has: (_, key) => Reflect.has(pyodide, key) });
    }
    return function (...args) {
      return at().apply(this, args);
    };
  }

  async function fetchBytes(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    if (!url.endsWith(".gz")) return new Uint8Array(await response.arrayBuffer());
    const plain = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(plain).arrayBuffer());
  }

  function fetching(url) {
    const bytes = fetchBytes(url);
    bytes.catch(() => {}); // a failure is handled where it is awaited, in load()
    return bytes;
  }

  async function load(loadPyodide, options) {
    const { snapshotURL, snapshotFilesURL, snapshotHelperURL, ...usual } = options;
    if (!snapshotURL || !snapshotFilesURL) return loadPyodide(usual);
    try {
      const archive = fetching(snapshotFilesURL); // both fetched while the runtime starts
      const py = await loadPyodide({
        ...usual,
        packages: [], // their files come from the archive, written by restored()
        _loadSnapshot: fetching(snapshotURL),
        _snapshotDeserializer: deserialize,
      });
      files = await archive;
      pyodide = py;
      return py;
    } catch (error) {
      console.warn("Tartli: starting Python without the snapshot:", error);
      pyodide = files = null;
      return loadPyodide(usual);
    }
  }

  function restored(py) {
    if (py !== pyodide || files === null) return; // started the usual way
    const bytes = files;
    files = null;
    const size = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + size)));
    for (const dir of index.dirs) py.FS.mkdirTree(dir);
    let offset = 4 + size;
    for (const [path, length] of index.files) {
      py.FS.writeFile(path, bytes.subarray(offset, offset + length), { canOwn: true });
      offset += length;
    }
    Object.assign(py.loadedPackages, index.loaded); // the kernel then loads none of them again
    // What must differ from one visit to the next: `random` was seeded when the snapshot was made.
    py.runPython("import importlib, random\nimportlib.invalidate_caches()\nrandom.seed()");
  }

  self.tartliSnapshot = { load, restored };
})();
