// The reference page for `bench:lighthouse`: the landing page's hero (its badge,
// heading, lead paragraph and two buttons, read from the built `/`) as plain
// HTML with a few lines of inline CSS and the system font: no JavaScript, no
// web font, no stylesheet, no images. What a browser needs at least to paint it.

const textOf = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, '')
    .trim();

function pick(html: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(html);
  if (!match?.[1]) throw new Error(`the hero's ${what} is missing from the built landing page`);
  return textOf(match[1]);
}

/** The plain page of the hero in `landingHtml` (the built `/`). */
export function plainHeroPage(landingHtml: string): string {
  const start = landingHtml.indexOf('<section aria-labelledby="hero-heading"');
  if (start < 0) throw new Error('no hero in the built landing page');
  const hero = landingHtml.slice(start, landingHtml.indexOf('</section>', start));
  const badge = pick(hero, /<p[^>]*>(.*?)<\/p>\s*<h1/s, 'badge');
  const heading = pick(hero, /<h1[^>]*>(.*?)<\/h1>/s, 'heading');
  const lead = pick(hero, /<\/h1>\s*<p[^>]*>(.*?)<\/p>/s, 'lead paragraph');
  const demo = pick(hero, /<a href="\/demo"[^>]*>(.*?)<\/a>/s, 'demo button');
  const sales = pick(hero, /<a[^>]*href="\/talk-to-sales"[^>]*>(.*?)<\/a>/s, 'sales button');
  const css = [
    'body{margin:0;font-family:system-ui,sans-serif;background:#0b1b33;color:#fff}',
    'main{max-width:40rem;margin:0 auto;padding:7rem 1.25rem 4rem;text-align:center}',
    'h1{font-size:2.25rem;line-height:1.1;letter-spacing:-.02em;margin:1.5rem 0 0}',
    '.badge{display:inline-block;border-radius:9999px;background:#ffffff1a;padding:.25rem .75rem;font-size:.875rem}',
    '.lead{font-size:1.125rem;line-height:1.6;margin:1.5rem 0 0;color:#dbe4f0}',
    '.cta a{display:block;margin:.75rem auto 0;max-width:16rem;border-radius:.5rem;padding:.75rem 1.5rem;font-weight:600;text-decoration:none;color:#fff;box-shadow:inset 0 0 0 1px #ffffff59}',
    '.cta a:first-child{background:#00a2ff;color:#0b1b33;box-shadow:none}',
  ].join('');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Plain hero (bench:lighthouse reference)</title>',
    '<meta name="description" content="The landing page hero as plain HTML, for comparison.">',
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<p class="badge">${badge}</p>`,
    `<h1>${heading}</h1>`,
    `<p class="lead">${lead}</p>`,
    `<p class="cta"><a href="/demo">${demo}</a><a href="/talk-to-sales">${sales}</a></p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
