// Draws glTF files with three.js (GLTFLoader and AnimationMixer, npm `three`) in headless Chromium
// (npm `playwright-core` driving the system's Chromium: no browser download) at cameras `hanim-viewer
// render --camera-json` wrote, and writes the pictures as PNGs: white silhouettes on black.
//
// usage: node tools/gltf/three_render.mjs SHOTS.json
//   SHOTS.json: [{"file": "x.glb", "camera": "cam.json" (or that file's object), "clip": null | "name",
//                 "time": 0.5, "out": "x.three.png"}, ...]
// environment: CHROMIUM (default /usr/bin/chromium), THREE_GL (llvmpipe, the default: Mesa through EGL;
//              or swiftshader).
// Prints one JSON line per picture: {"out", "animations": [{name, duration}]} or {"out", "error"}.
// Exit status 1 when a picture failed. Files are served on 127.0.0.1 only; nothing else is reached.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const shots = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const files = [...new Set(shots.map((s) => path.resolve(s.file)))];
const MIME = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript" };

// /page/... from this folder (the page and node_modules/three), /file/N the N-th input file.
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  let file = null;
  if (url.pathname.startsWith("/file/")) {
    file = files[Number(url.pathname.slice(6))];
  } else if (url.pathname.startsWith("/page/")) {
    const candidate = path.resolve(HERE, decodeURIComponent(url.pathname.slice(6)));
    if (candidate.startsWith(HERE + path.sep)) file = candidate;
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404);
    res.end("not found");
    return;
  }
  res.writeHead(200, { "Content-Type": MIME[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.address().port;

const gl = process.env.THREE_GL || "llvmpipe";
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--ignore-gpu-blocklist",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ...(gl === "swiftshader" ? ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"] : ["--use-angle=gl-egl"]),
  ],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 64, height: 64 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${port}/page/three_page.html`);
  await page.waitForFunction(() => window.threeReady === true, null, { timeout: 30000 });
  for (const shot of shots) {
    // The camera itself, or the file `render --camera-json` wrote it into.
    const camera = typeof shot.camera === "string" ? JSON.parse(fs.readFileSync(shot.camera, "utf8")) : shot.camera;
    const url = `http://127.0.0.1:${port}/file/${files.indexOf(path.resolve(shot.file))}`;
    try {
      const r = await page.evaluate((s) => window.threeShot(s), { url, camera, clip: shot.clip ?? null, time: shot.time ?? 0 });
      fs.writeFileSync(shot.out, Buffer.from(r.png.slice("data:image/png;base64,".length), "base64"));
      console.log(JSON.stringify({ out: shot.out, animations: r.animations, gl: r.renderer }));
    } catch (e) {
      failed = true;
      console.log(JSON.stringify({ out: shot.out, error: String(e.message || e), page: errors.splice(0) }));
    }
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
