// Renders the social card (public/og-image.png, 1200×630) from HTML in Debian's
// Chromium. Run after changing the brand or the tagline: node scripts/generate-og-image.mjs
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const font = await readFile(
  path.join(root, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'),
);
const html = `<!doctype html><html><head><style>
@font-face { font-family: Inter; src: url(data:font/woff2;base64,${font.toString('base64')}) format('woff2'); font-weight: 100 900; }
* { margin: 0; box-sizing: border-box; }
body { width: 1200px; height: 630px; background: #0b1b33; color: #fff; font-family: Inter, sans-serif; overflow: hidden; position: relative; }
.ring { position: absolute; top: -140px; right: -140px; width: 520px; height: 520px; border-radius: 50%; border: 56px solid rgba(0,162,255,.16); }
.copy { position: absolute; left: 80px; top: 80px; width: 640px; }
.brand { display: flex; align-items: center; gap: 16px; font-size: 34px; font-weight: 700; letter-spacing: -0.02em; }
h1 { margin-top: 56px; font-size: 64px; line-height: 1.06; font-weight: 700; letter-spacing: -0.03em; }
p { margin-top: 28px; font-size: 28px; line-height: 1.35; color: #d5deeb; }
.card { position: absolute; right: 72px; top: 150px; width: 380px; background: #fff; color: #0b1b33; border-radius: 28px; padding: 28px; box-shadow: 0 30px 60px rgba(0,0,0,.35); }
.row { display: flex; justify-content: space-between; align-items: center; font-size: 17px; font-weight: 600; }
.pill { background: #0b1b33; color: #fff; border-radius: 999px; padding: 6px 12px; font-size: 14px; }
.pill b { color: #3ddc97; }
.wave { display: flex; align-items: center; justify-content: space-between; height: 44px; margin: 22px 0; }
.wave i { display: block; width: 4px; border-radius: 4px; background: #00a2ff; }
.bubble { background: #eaf7ff; border-radius: 18px; padding: 14px 16px; font-size: 17px; line-height: 1.4; }
.ok { margin-top: 18px; color: #12805c; font-weight: 600; font-size: 16px; }
</style></head><body>
<div class="ring"></div>
<div class="copy">
  <div class="brand"><svg width="52" height="52" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#1d3357"/><path d="M21.5 10.2a8 8 0 1 0 0 11.6" fill="none" stroke="#00a2ff" stroke-width="3.2" stroke-linecap="round"/><circle cx="22" cy="16" r="2.2" fill="#3ddc97"/></svg>Cervana</div>
  <h1>The AI phone system for customer success teams</h1>
  <p>Every call answered. Every issue handled. Every hand-off with context.</p>
</div>
<div class="card">
  <div class="row"><span>Northwind Logistics</span><span class="pill"><b>●</b> Live · 02:14</span></div>
  <div class="wave">${[
    6, 14, 24, 32, 18, 10, 22, 36, 28, 14, 8, 20, 30, 24, 12, 6, 16, 26, 34, 20, 10, 18, 28, 14,
  ]
    .map((height) => `<i style="height:${height}px"></i>`)
    .join('')}</div>
  <div class="bubble">Three of those seats have never signed in. Shall I remove them from your next invoice?</div>
  <div class="ok">✓ Resolved on the call</div>
</div>
</body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.evaluate(() => globalThis.document.fonts.ready);
await page.screenshot({ path: path.join(root, 'public', 'og-image.png') });
await browser.close();
console.log('wrote public/og-image.png');
