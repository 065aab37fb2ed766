// The static edition's start-up from a memory snapshot (see tartli/site/builder.py), loaded by the Pyodide
// kernel's web worker (the build adds one call to the worker's loadPyodide). With the settings'
// loadPyodideOptions.snapshotURL it restores Python as make_snapshot.mjs left it (packages loaded,
// IPython, the kernel and the course imported) instead of loading and importing all of it again;
// the site-packages files come as one archive (snapshotFilesURL), the standard library as a zip
// without the modules the snapshot has imported (snapshotStdlibURL). If anything goes wrong the
// worker starts Python the usual way, from the wheels: slower, never broken.
//
// The snapshot and the archive are stored plain, with a .gz and a .br copy beside each (the build
// compresses every large file of the site). A host that sends those copies to a browser that asks
// for them (Content-Encoding: `python -m tartli.site serve`, or a web server set up as the README
// says) gives the browser brotli or gzip, which it unpacks itself; from any other host the loader
// fetches the .gz copy and unpacks it here. One HEAD request tells which host this is.
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

  // Whether the host sends `url` compressed when the browser asks for it (a Content-Encoding header);
  // null if no host answered (offline: the service worker keeps no HEAD answers, but it may well
  // hold the file itself from an earlier visit).
  async function hostCompresses(url) {
    try {
      const response = await fetch(url, { method: "HEAD" });
      return response.ok && Boolean(response.headers.get("Content-Encoding"));
    } catch {
      return null;
    }
  }

  // The bytes of `url`: the plain file where the host compresses it, else its .gz copy, unpacked
  // here (unless the host labelled the .gz copy itself Content-Encoding: gzip, and the browser did).
  // With no answer (offline), whichever of the two the service worker kept on the first visit.
  async function fetchBytes(url, compressed) {
    const answer = await compressed;
    let gz = answer === false;
    let response = null;
    if (answer === null) {
      response = await fetch(url).catch(() => null);
      gz = !response || !response.ok;
    }
    if (!response || gz) response = await fetch(gz ? url + ".gz" : url);
    if (!response.ok) throw new Error(`${url}${gz ? ".gz" : ""}: HTTP ${response.status}`);
    if (!gz || response.headers.get("Content-Encoding")) return new Uint8Array(await response.arrayBuffer());
    const plain = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(plain).arrayBuffer());
  }

  // SHA-256 (FIPS 180-4), for pages served without HTTPS, where crypto.subtle does not exist.
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function sha256Plain(bytes) {
    const h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]);
    const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[bytes.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
    view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let block = 0; block < padded.length; block += 64) {
      for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + 4 * t);
      for (let t = 16; t < 64; t++) {
        const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let t = 0; t < 64; t++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
    }
    return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
  }

  async function sha256(bytes) {
    if (self.crypto && self.crypto.subtle) {
      const digest = new Uint8Array(await self.crypto.subtle.digest("SHA-256", bytes));
      return Array.from(digest, (x) => x.toString(16).padStart(2, "0")).join("");
    }
    return sha256Plain(bytes);
  }

  // The file's bytes once their SHA-256 is the one the build wrote (else an error: the usual start).
  function fetching(url, compressed, expected) {
    const bytes = fetchBytes(url, compressed).then(async (data) => {
      if (!expected) throw new Error(`${url}: no checksum in the site's settings`);
      const actual = await sha256(data);
      if (actual !== expected) throw new Error(`${url}: SHA-256 ${actual}, expected ${expected}`);
      return data;
    });
    bytes.catch(() => {}); // a failure is handled where it is awaited, in load()
    return bytes;
  }

  async function load(loadPyodide, options) {
    const {
      snapshotURL,
      snapshotFilesURL,
      snapshotStdlibURL,
      snapshotHelperURL,
      snapshotSHA256,
      snapshotFilesSHA256,
      ...usual
    } = options;
    if (!snapshotURL || !snapshotFilesURL || !snapshotStdlibURL) return loadPyodide(usual);
    try {
      const compressed = hostCompresses(snapshotURL);
      const archive = fetching(snapshotFilesURL, compressed, snapshotFilesSHA256); // fetched while the runtime starts
      const snapshot = fetching(snapshotURL, compressed, snapshotSHA256); // resolves only once its checksum matches
      const py = await loadPyodide({
        ...usual,
        stdLibURL: snapshotStdlibURL, // the zip the snapshot was taken with
        packages: [], // their files come from the archive, written by restored()
        _loadSnapshot: snapshot,
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

  self.tartliSnapshot = { load, restored, sha256Plain };
})();
