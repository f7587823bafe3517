// Runs the Khronos glTF-Validator on each file given and prints one JSON line per file:
// {"file", "errors", "warnings", "infos", "hints", "messages": [first 20 errors and warnings]}.
// Exit status 1 when any file has an error. Usage: node tools/gltf/validate.mjs FILE.glb...
import { readFile } from "node:fs/promises";
import validator from "gltf-validator";

let failed = false;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, {
    uri: file,
    maxIssues: 1000,
    // Everything an exported file holds is in it: an external reference is itself a defect.
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const issues = report.issues;
  const messages = issues.messages
    .filter((m) => m.severity <= 1)
    .slice(0, 20)
    .map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message }));
  console.log(JSON.stringify({
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages,
  }));
  if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
