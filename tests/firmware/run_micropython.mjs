// Runs a Python script inside the MicroPython WebAssembly port with the firmware files and the
// stand-in modules in its file system:
//   node run_micropython.mjs FIRMWARE_DIR STANDINS_DIR SCRIPT [VECTORS_JSON]
// The files land in /fw, /standins and /data/vectors.json. Prints the interpreter's output;
// exits 1 on a Python error.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = process.env.MICROPYTHON_MJS ||
  path.join(here, "..", "..", "node_modules", "@micropython",
    "micropython-webassembly-pyscript", "micropython.mjs");
const [firmwareDir, standinsDir, script, vectors] = process.argv.slice(2);
if (!firmwareDir || !standinsDir || !script) {
  console.error("usage: run_micropython.mjs FIRMWARE_DIR STANDINS_DIR SCRIPT [VECTORS_JSON]");
  process.exit(2);
}
const { loadMicroPython } = await import(pkg);
const lines = [];
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  stdout: (line) => lines.push(line),
  stderr: (line) => lines.push(line),
});
function copyDir(src, dest) {
  mp.FS.mkdir(dest);
  for (const name of fs.readdirSync(src)) {
    if (name.endsWith(".py")) {
      mp.FS.writeFile(`${dest}/${name}`, fs.readFileSync(path.join(src, name)));
    }
  }
}
copyDir(firmwareDir, "/fw");
copyDir(standinsDir, "/standins");
mp.FS.mkdir("/data");
if (vectors) mp.FS.writeFile("/data/vectors.json", fs.readFileSync(vectors));
let code = 0;
try {
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (error) {
  lines.push(`PYTHON ERROR ${error.type || ""}: ${error.message}`);
  code = 1;
}
console.log(lines.join("\n"));
process.exit(code);
