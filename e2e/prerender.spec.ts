import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';

const sectionHeadings = [
  'The AI phone system for customer success teams',
  'Unanswered calls are churn you do not see coming',
  'From your phone number to a resolved call in four steps',
  'Built for teams whose customers pick up the phone',
  'Listen to Cervana take two real-world calls',
  'The calls your CSMs should not have to take, and the ones they should',
  'More capacity than hiring, more judgement than a phone menu',
  'Bring Cervana to the CS teams you already advise',
  'What a first quarter with Cervana looks like',
];

test('the HTML of / as served holds the hero headline and every section heading, in order', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  let position = 0;
  for (const heading of sectionHeadings) {
    const found = html.indexOf(heading.replace(/'/g, '&#x27;'), position);
    expect(found, heading).toBeGreaterThan(position);
    position = found;
  }
  expect(html).toContain(`<link rel="canonical" href="${baseURL}/" />`);
  expect(html).toContain('<script type="application/ld+json">');
  expect(html).not.toContain('__SITE_URL__');
  // One inline script, the bootstrap that starts the app after the first paint:
  // allowed by its hash in the CSP, and nothing else inline is.
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  expect(inline).toHaveLength(1);
  const hash = createHash('sha256').update(inline[0]!).digest('base64');
  const csp = response.headers()['content-security-policy']!;
  const scriptSources = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
  expect(scriptSources).toEqual(["'self'", `'sha256-${hash}'`, 'https://assets.calendly.com']);
});

test('the landing page first paints with its hero parsed whole, not half of it', async ({
  request,
}) => {
  // Render-blocking until the heading after the hero is parsed (decision 036): a starved CPU
  // otherwise paints the hero's call card half-built, and it grows and moves the copy.
  const html = await (await request.get('/')).text();
  const expectLink = /<link rel="expect" href="#([\w-]+)" blocking="render">/.exec(html);
  expect(expectLink, 'a render-blocking rel=expect link').not.toBeNull();
  const target = html.indexOf(` id="${expectLink![1]}"`);
  expect(target).toBeGreaterThan(html.indexOf('</figure>', html.indexOf('id="hero-heading"')));
  expect(html.indexOf('</head>')).toBeGreaterThan(expectLink!.index);
});

test('without JavaScript the landing page still reads in full', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  for (const heading of sectionHeadings) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  // The demo button is a real link: without JavaScript it leads to our own scheduler.
  await expect(
    page.locator('header').getByRole('link', { name: 'Book a 15-min demo' }),
  ).toHaveAttribute('href', '/demo');
  await context.close();
});

test('each public page has its own title, description, canonical URL and social card', async ({
  request,
  baseURL,
}) => {
  const pages = [
    ['/', 'Cervana — the AI phone agent for customer success teams'],
    ['/partner', 'Partner program — Cervana'],
    ['/demo', 'Book a demo — Cervana'],
    ['/talk-to-sales', 'Talk to Sales — Cervana'],
    ['/privacy-policy', 'Privacy policy — Cervana'],
  ] as const;
  for (const [path, title] of pages) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain(`<title>${title}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}" \/>/);
    expect(html).toContain(`<link rel="canonical" href="${baseURL}${path}" />`);
    expect(html).toContain(`<meta property="og:image" content="${baseURL}/og-image.png" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
  }
  const image = await request.get('/og-image.png');
  expect(image.headers()['content-type']).toBe('image/png');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const [path] of pages) expect(sitemap).toContain(`<loc>${baseURL}${path}</loc>`);
  expect(await (await request.get('/robots.txt')).text()).toContain(
    `Sitemap: ${baseURL}/sitemap.xml`,
  );
});

test('the page title follows client-side navigation', async ({ page }) => {
  await page.goto('/');
  await page.waitForSelector('html[data-ready="true"]');
  await page.locator('footer').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveTitle('Privacy policy — Cervana');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/privacy-policy$/);
});

test("a signed-in page's shell lists its code and /config.json up front, and every file it lists is served", async ({
  page,
  request,
}) => {
  const preloadsOf = async (pathname: string) => {
    const html = await (await request.get(pathname)).text();
    return [...html.matchAll(/<link rel="(modulepreload|preload)"[^>]* href="([^"]+)"/g)].map(
      (match) => match[2]!,
    );
  };
  const dashboard = await preloadsOf('/dashboard');
  expect(dashboard).toContain('/config.json');
  expect(dashboard.some((href) => /\/assets\/portal-layout-[\w-]+\.js$/.test(href))).toBe(true);
  expect(dashboard.some((href) => /\/assets\/dashboard-[\w-]+\.js$/.test(href))).toBe(true);
  for (const href of new Set(dashboard)) {
    expect((await request.get(href)).status(), href).toBe(200);
  }
  // Each page lists its own code: the calls page is not the overview.
  const calls = await preloadsOf('/dashboard/calls');
  expect(calls.some((href) => /\/assets\/dashboard-calls-[\w-]+\.js$/.test(href))).toBe(true);
  expect(calls.some((href) => /\/assets\/dashboard-[A-Za-z0-9_]+\.js$/.test(href))).toBe(false);
  // A call's page (any id) gets the shell with the portal's frame.
  const call = await preloadsOf('/dashboard/calls/00000000-0000-4000-8000-000000000000');
  expect(call.some((href) => /\/assets\/portal-layout-[\w-]+\.js$/.test(href))).toBe(true);

  // The preloaded /config.json is the one the app reads: it is fetched once.
  const configRequests: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/config.json') configRequests.push(sent.url());
  });
  await page.goto('/auth');
  await expect(page.getByRole('heading', { level: 1, name: /sign in to cervana/i })).toBeVisible();
  expect(configRequests).toHaveLength(1);
});
