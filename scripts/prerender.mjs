// Renders the public pages to HTML at build time (after `vite build` of the
// client and of src/entry-server.tsx), writes the SPA shell for the other
// pages, the sitemap and robots.txt. URLs carry __SITE_URL__, which the server
// replaces with SITE_URL, so one build serves any deployment.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, optimize } from '@tailwindcss/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'dist', 'client');
const ssrDir = path.join(root, 'dist', 'ssr');

/** Prerendered pages: path → file. The not-found page renders an unmatched path. */
const pages = [
  { path: '/', file: 'index.html', sitemap: true },
  { path: '/partner', file: 'partner/index.html', sitemap: true },
  { path: '/demo', file: 'demo/index.html', sitemap: true },
  { path: '/talk-to-sales', file: 'talk-to-sales/index.html', sitemap: true },
  { path: '/privacy-policy', file: 'privacy-policy/index.html', sitemap: true },
  { path: '/__not-found__', file: '404.html', sitemap: false },
];

const { renderPage, SITE_URL_PLACEHOLDER } = await import(
  pathToFileURL(path.join(ssrDir, 'entry-server.js')).href
);
const template = await readFile(path.join(clientDir, 'index.html'), 'utf8');

// Inline the stylesheet: one round trip less before first paint.
const stylesheet = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(
  template,
);
if (!stylesheet) throw new Error('no stylesheet link in dist/client/index.html');
const css = await readFile(path.join(clientDir, stylesheet[1]), 'utf8');
const fontFile = /url\((\/assets\/inter-latin-400-700-[^)]+\.woff2)\)/.exec(css)?.[1];
if (!fontFile) throw new Error('the Inter font is missing from the stylesheet');

// A prerendered page inlines only the CSS its own HTML uses (Tailwind run again on
// the classes in that HTML: about half the stylesheet), and the bootstrap below adds
// the whole stylesheet with the app's code, before anything can render other classes.
const stylesheetSource = path.join(root, 'src', 'index.css');
const stylesheetText = await readFile(stylesheetSource, 'utf8');

function decodeAttribute(value) {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

// Inter's face is left out of a prerendered page's inline CSS: the page paints in the
// local fallback faces (metric-matched, src/index.css), and Inter loads once the whole
// stylesheet arrives, after the first paint, so the paint never waits for the font's
// 26 KB (<noscript> adds the stylesheet where the bootstrap does not run). Decision 033.
const interFace = /@font-face\{font-family:Inter Variable;[^}]*\}/;

async function pageStylesheet(body) {
  const candidates = new Set();
  for (const match of body.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of decodeAttribute(match[1]).split(/\s+/)) if (name) candidates.add(name);
  }
  // A compiler per page: a compiler keeps every candidate it was given, so reusing one would
  // give each page the classes of the pages before it.
  const compiler = await compile(stylesheetText, {
    base: path.dirname(stylesheetSource),
    onDependency: () => undefined,
  });
  const pageCss = optimize(compiler.build([...candidates]), { minify: true }).code;
  if (!interFace.test(pageCss)) throw new Error('the Inter font is missing from a page stylesheet');
  return pageCss.replace(interFace, '').replace(/^\/\*![^*]*\*\/\s*/, '');
}

// Prerendered pages are complete without JavaScript, so the app's code starts
// downloading right after the first paint instead of competing with it. The
// bootstrap is inline; the server allows exactly it through its CSP hash.
const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(template);
if (!entryScript) throw new Error('no module script in dist/client/index.html');
const modulePreloads = [
  ...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g),
];
// A browser that has loaded Inter before (remembered in localStorage) gets its face before the
// first paint, from its cache, so a repeat view does not swap fonts; a first view paints at once
// in the fallback faces and swaps to Inter, without moving, once the stylesheet has come.
const builtInterFace = interFace.exec(css)?.[0];
if (!builtInterFace) throw new Error('the Inter font is missing from the stylesheet');
const bootstrap =
  `(function(){var d=document,started=false,k='cervana:inter';` +
  `try{if(localStorage.getItem(k))d.head.appendChild(d.createElement('style')).textContent=${JSON.stringify(builtInterFace)}}catch(e){}` +
  `function start(){if(started)return;started=true;` +
  `var c=d.createElement('link');c.rel='stylesheet';c.href=${JSON.stringify(stylesheet[1])};` +
  `c.onload=function(){d.fonts.load('1em "Inter Variable"').then(function(f){if(f.length)try{localStorage.setItem(k,'1')}catch(e){}},function(){})};d.head.appendChild(c);` +
  `${JSON.stringify(modulePreloads.map((match) => match[1]))}.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;d.head.appendChild(l)});` +
  `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entryScript[1])};d.head.appendChild(s)}` +
  // After the first contentful paint (or after a second, without paint timing or in a hidden tab).
  `try{new PerformanceObserver(function(l){if(l.getEntriesByName('first-contentful-paint').length)setTimeout(start,0)}).observe({type:'paint',buffered:true})}catch(e){}` +
  `setTimeout(start,1000)})()`;
const bootstrapHash = `sha256-${createHash('sha256').update(bootstrap).digest('base64')}`;

function withDeferredScripts(html) {
  let result = html.replace(entryScript[0], '');
  for (const match of modulePreloads) result = result.replace(match[0], '');
  return result.replace('</body>', `  <script>${bootstrap}</script>\n  </body>`);
}

async function page({ head, body, prerendered, preloads = [] }) {
  const inlineCss = prerendered ? await pageStylesheet(body) : css;
  const html = template
    .replace('</head>', `${preloads.map((link) => `  ${link}\n`).join('')}  </head>`)
    .replace(/<title>[\s\S]*?<\/title>\s*<meta\s+name="description"[\s\S]*?\/>/, head)
    .replace(
      stylesheet[0],
      // No page preloads Inter. A prerendered page paints at once in a local font resized
      // to Inter's metrics (src/index.css) and swaps Inter in when it arrives: its first
      // paint waits for no font (decision 033). A shell's one line ('Loading...') is set in
      // that fallback too, so Inter's 26 KB do not share the bandwidth with the page's code
      // and first reads (decision 034).
      prerendered
        ? `<style>${inlineCss}</style>\n    <noscript><link rel="stylesheet" href="${stylesheet[1]}"></noscript>`
        : `<style>${inlineCss}</style>`,
    )
    .replace(
      '<div id="root"></div>',
      prerendered
        ? `<div id="root" data-prerendered="true">${body}</div>`
        : `<div id="root">${body}</div>`,
    );
  return prerendered ? withDeferredScripts(html) : html;
}

// The pages that are not prerendered (sign-in and the signed-in area) start from the
// shell, whose entry module alone would discover their code one import at a time:
// the portal's frame, then the page, then the Supabase client after /config.json.
// Each shell lists them up front instead, so they download while the entry runs.
const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
const entryFiles = new Set([entryScript[1], ...modulePreloads.map((match) => match[1])]);

/** The files of a module's chunk and of every chunk it imports statically, less the entry's. */
function chunkFiles(key, found = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  const file = `/${chunk.file}`;
  if (found.has(file) || entryFiles.has(file)) return found;
  found.add(file);
  for (const imported of chunk.imports ?? []) chunkFiles(imported, found);
  return found;
}

const supabaseKey = Object.keys(manifest).find(
  (key) => key.includes('node_modules/@supabase/supabase-js/') && manifest[key].isDynamicEntry,
);
if (!supabaseKey) throw new Error('the Supabase client is not a chunk of its own in the build');

// The Supabase client and the page's first reads come first: the session and the data are
// asked for while the page's own code still downloads (prefetchRouteData in src/main.tsx).
// A page's reads that only its page imports may be bundled into the page's own chunk;
// the manifest then has no entry of their own, and the page's entry lists them.
function shellPreloads(moduleKeys) {
  const files = new Set();
  const listed = moduleKeys.filter((key) => !dataModules.has(key) || key in manifest);
  // A signed-in page is found through the portal's half of the route table (decision 036).
  if (listed.includes(portal)) listed.push(portalPages);
  for (const key of [supabaseKey, ...listed]) chunkFiles(key, files);
  return [
    '<link rel="preload" href="/config.json" as="fetch" crossorigin>',
    ...[...files].map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
  ];
}

const portal = 'src/app/portal-layout.tsx';
const portalPages = 'src/app/portal-pages.tsx';
/** The first reads of the calls pages (the route table's `handle.data`; the admin's and the partner portal's below). */
const callsData = 'src/features/calls/api/prefetch.ts';
/** The modules of the first reads (beside each list's queries: `prefetch…View` in its API module). */
const dataModules = new Set([
  callsData,
  'src/features/admin/api/prefetch.ts',
  'src/features/partners/api/prefetch.ts',
  'src/features/partners/api/partner-referrals.ts',
  'src/features/partners/api/commissions.ts',
]);
const adminData = (name) => {
  const key = `src/features/admin/api/${name}.ts`;
  dataModules.add(key);
  return key;
};
/** Shell pages with a path of their own: path → their modules (the portal's pages include its frame). */
const shellPages = [
  { path: '/auth', modules: ['src/app/routes/auth.tsx'] },
  { path: '/dashboard', modules: [callsData, portal, 'src/app/routes/dashboard.tsx'] },
  { path: '/dashboard/calls', modules: [callsData, portal, 'src/app/routes/dashboard-calls.tsx'] },
  { path: '/dashboard/connect', modules: [portal, 'src/app/routes/dashboard-connect.tsx'] },
  { path: '/dashboard/agent', modules: [portal, 'src/app/routes/dashboard-agent.tsx'] },
  { path: '/dashboard/numbers', modules: [portal, 'src/app/routes/dashboard-numbers.tsx'] },
  { path: '/dashboard/knowledge', modules: [portal, 'src/app/routes/dashboard-knowledge.tsx'] },
  { path: '/dashboard/team', modules: [portal, 'src/app/routes/dashboard-team.tsx'] },
  { path: '/dashboard/settings', modules: [portal, 'src/app/routes/account-settings.tsx'] },
  {
    path: '/partner-portal',
    modules: ['src/features/partners/api/prefetch.ts', portal, 'src/app/routes/partner-portal.tsx'],
  },
  {
    path: '/partner-portal/referrals',
    modules: [
      'src/features/partners/api/partner-referrals.ts',
      portal,
      'src/app/routes/partner-portal-referrals.tsx',
    ],
  },
  {
    path: '/partner-portal/registrations',
    modules: [portal, 'src/app/routes/partner-portal-registrations.tsx'],
  },
  {
    path: '/partner-portal/commissions',
    modules: [
      'src/features/partners/api/commissions.ts',
      portal,
      'src/app/routes/partner-portal-commissions.tsx',
    ],
  },
  { path: '/partner-portal/assets', modules: [portal, 'src/app/routes/partner-portal-assets.tsx'] },
  {
    path: '/admin',
    modules: ['src/features/admin/api/prefetch.ts', portal, 'src/app/routes/admin.tsx'],
  },
  {
    path: '/admin/leads',
    modules: [adminData('leads-list'), portal, 'src/app/routes/admin-leads.tsx'],
  },
  { path: '/admin/audit', modules: [portal, 'src/app/routes/admin-audit.tsx'] },
  {
    path: '/admin/partners',
    modules: [adminData('partners'), portal, 'src/app/routes/admin-partners.tsx'],
  },
  {
    path: '/admin/emails',
    modules: [adminData('email-log'), portal, 'src/app/routes/admin-emails.tsx'],
  },
  { path: '/admin/users', modules: [adminData('users'), portal, 'src/app/routes/admin-users.tsx'] },
  {
    path: '/admin/bookings',
    modules: [adminData('bookings'), portal, 'src/app/routes/admin-bookings.tsx'],
  },
  { path: '/admin/availability', modules: [portal, 'src/app/routes/admin-availability.tsx'] },
  {
    path: '/admin/commissions',
    modules: [adminData('commissions'), portal, 'src/app/routes/admin-commissions.tsx'],
  },
];

// The shell serves every other page that is not prerendered (a call's page): 'Loading...' until the app starts.
const shellHead = [
  '<title>Cervana</title>',
  '<meta name="description" content="Cervana, the AI phone agent for customer success teams." />',
  '<meta name="robots" content="noindex" />',
].join('\n    ');
const shellBody =
  '<div role="status" aria-live="polite" class="flex min-h-dvh items-center justify-center"><p class="text-base font-medium text-ink-600" style="font-family:\'Inter Fallback\',ui-sans-serif,system-ui,sans-serif">Loading...</p></div>';
await writeFile(
  path.join(clientDir, 'shell.html'),
  await page({
    head: shellHead,
    body: shellBody,
    prerendered: false,
    preloads: shellPreloads([portal]),
  }),
);
for (const entry of shellPages) {
  const target = path.join(clientDir, entry.path.slice(1), 'index.html');
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(
    target,
    await page({
      head: shellHead,
      body: shellBody,
      prerendered: false,
      preloads: shellPreloads(entry.modules),
    }),
  );
}

// The landing page's first paint waits until its hero is parsed whole, that is until the
// heading of the section after it arrives (`rel=expect`, render-blocking). On a starved CPU
// the browser otherwise paints a half-parsed hero, and its call card, centred in the
// hero's grid row, grows and moves the copy as its lines arrive (decision 036).
const paintAfter = { '/': 'cost-savings-heading' };

for (const entry of pages) {
  const rendered = await renderPage(entry.path);
  const target = path.join(clientDir, entry.file);
  const expected = paintAfter[entry.path];
  if (expected && !rendered.body.includes(` id="${expected}"`)) {
    throw new Error(`${entry.path} has no #${expected} for its first paint to wait for`);
  }
  const preloads = expected ? [`<link rel="expect" href="#${expected}" blocking="render">`] : [];
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, await page({ ...rendered, prerendered: true, preloads }));
}

const sitemap = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
  ...pages
    .filter((entry) => entry.sitemap)
    .map((entry) => `  <url><loc>${SITE_URL_PLACEHOLDER}${entry.path}</loc></url>`),
  '</urlset>',
  '',
].join('\n');
await writeFile(path.join(clientDir, 'sitemap.xml'), sitemap);
const robots = await readFile(path.join(root, 'public', 'robots.txt'), 'utf8');
await writeFile(
  path.join(clientDir, 'robots.txt'),
  `${robots.trimEnd()}\n\nSitemap: ${SITE_URL_PLACEHOLDER}/sitemap.xml\n`,
);

// The server reads this to allow the bootstrap (and nothing else inline) in its CSP.
await writeFile(
  path.join(clientDir, '.csp.json'),
  `${JSON.stringify({ scriptHashes: [bootstrapHash] })}\n`,
);

await rm(ssrDir, { recursive: true, force: true });
await rm(path.dirname(manifestFile), { recursive: true, force: true });
console.log(
  `prerendered ${pages.length} pages, the shell and ${shellPages.length} shells with their page's code, sitemap.xml and robots.txt`,
);
