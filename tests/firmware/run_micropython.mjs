// Runs a firmware test scenario under the real MicroPython interpreter (WebAssembly port).
//
//   node tests/firmware/run_micropython.mjs tests/firmware/scenarios/vectors.py
//
// The firmware (firmware/micropython/*.py) is copied into /fw of MicroPython's virtual file
// system, the hardware stand-ins (tests/firmware/standins/*.py) into /lib, the scenario helpers
// into /scenarios and the protocol vectors to /data. The scenario prints lines "RESULT <json>"; this script merges them and
// prints one JSON object: {"ok", "results", "output", "error", "micropython"}.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const pkg = process.env.MICROPYTHON_MJS ||
  join(root, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs");

const scenarioPath = process.argv[2];
if (!scenarioPath) {
  console.error("usage: run_micropython.mjs SCENARIO.py");
  process.exit(2);
}

const { loadMicroPython } = await import(pkg);
const output = [];
const results = {};
const onLine = (line) => {
  if (line.startsWith("RESULT ")) {
    Object.assign(results, JSON.parse(line.slice(7)));
  } else {
    output.push(line);
  }
};
const mp = await loadMicroPython({ stdout: onLine, stderr: (l) => output.push("stderr: " + l),
  heapsize: 4 * 1024 * 1024 });

function copyDir(src, dst, ext) {
  try { mp.FS.mkdir(dst); } catch (e) { /* exists */ }
  for (const name of readdirSync(src)) {
    if (name.endsWith(ext)) mp.FS.writeFile(join(dst, name), readFileSync(join(src, name)));
  }
}
copyDir(join(root, "firmware", "micropython"), "/fw", ".py");
copyDir(join(here, "standins"), "/lib", ".py");
copyDir(join(here, "scenarios"), "/scenarios", ".py");
mp.FS.mkdir("/data");
mp.FS.writeFile("/data/protocol_vectors.json",
  readFileSync(join(root, "hardware", "protocol_vectors.json")));

let error = null;
let version = null;
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\nsys.path.append('/scenarios')");
  mp.runPython("_version = sys.version");
  version = mp.globals.get("_version");
  mp.runPython(readFileSync(scenarioPath, "utf8"));
} catch (e) {
  error = String(e && e.message ? e.message : e);
}
process.stdout.write(JSON.stringify({ ok: error === null, results, output, error,
  micropython: version }) + "\n");
