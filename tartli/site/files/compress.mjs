// Build step of the static edition (tartli/site/compress.py): a brotli copy, PATH.br, of each file
// named on standard input (a JSON array of paths), made with Node.js's own zlib at brotli's best
// quality (11) and the largest window browsers accept (2^24 bytes). A copy that would not save at
// least MIN_SAVING of the file is not written. Prints a JSON object: {path: size of PATH.br}.
//
//   node compress.mjs MIN_SAVING < paths.json
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";

const minSaving = Number(process.argv[2]);
const paths = JSON.parse(readFileSync(0, "utf8"));
const compress = promisify(brotliCompress);
const written = {};
let next = 0;

async function worker() {
  while (next < paths.length) {
    const path = paths[next++];
    const data = readFileSync(path);
    const packed = await compress(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    if (packed.length <= data.length * (1 - minSaving)) {
      writeFileSync(path + ".br", packed);
      written[path] = packed.length;
    }
  }
}

// The largest files first, so that the last one to finish is a small one.
paths.sort((a, b) => statSync(b).size - statSync(a).size);
await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
process.stdout.write(JSON.stringify(written));
