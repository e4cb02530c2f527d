import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';

/**
 * Serves the built site (`dist/client`): hashed assets cached for a year,
 * HTML never cached, brotli/gzip variants made at build time, and a real 404
 * (with the not-found page) for any path that is not one of the app's pages.
 *
 * Pages come from the build's prerendered HTML (`/partner` → `partner/index.html`),
 * else from `shell.html`. HTML, the sitemap and robots.txt carry `__SITE_URL__`,
 * replaced here with SITE_URL (then compressed once and kept in memory), so
 * one build serves any deployment.
 */

export const SITE_URL_PLACEHOLDER = '__SITE_URL__';
const TEMPLATED = /\.(html|xml|txt)$/;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface Variant {
  file: string;
  size: number;
}

interface SiteFile {
  file: string;
  size: number;
  modified: Date;
  etag: string;
  contentType: string;
  encoded: { br?: Variant; gzip?: Variant };
  /** Text with the site URL filled in, for templated files. */
  templated?: Uint8Array<ArrayBuffer>;
}

export interface StaticSiteOptions {
  siteDir: string;
  isRoute(pathname: string): boolean;
  /** Replaces `__SITE_URL__` in HTML, XML and text files. */
  siteUrl: string;
}

export interface StaticSite {
  /** False when the site has not been built; pages then answer 503. */
  readonly isBuilt: boolean;
  /** CSP hashes of the build's inline scripts (`.csp.json`, written by the prerenderer). */
  readonly scriptHashes: readonly string[];
  handle(c: Context): Promise<Response>;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';
const MEMORY_CACHE_LIMIT = 1024 * 1024;

async function walk(directory: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue; // build metadata, never served
    const relative = `${prefix}/${entry.name}`;
    if (entry.isDirectory())
      files.push(...(await walk(path.join(directory, entry.name), relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

async function indexSite(siteDir: string, siteUrl: string): Promise<Map<string, SiteFile>> {
  const index = new Map<string, SiteFile>();
  let files: string[];
  try {
    files = await walk(siteDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return index;
    throw error;
  }
  const present = new Set(files);
  await Promise.all(
    files
      .filter((file) => !file.endsWith('.br') && !file.endsWith('.gz'))
      .map(async (urlPath) => {
        const file = path.join(siteDir, urlPath);
        const info = await stat(file);
        if (TEMPLATED.test(urlPath)) {
          const text = (await readFile(file, 'utf8')).replaceAll(SITE_URL_PLACEHOLDER, siteUrl);
          const templated = new Uint8Array(Buffer.from(text, 'utf8'));
          index.set(urlPath, {
            file,
            size: templated.byteLength,
            modified: info.mtime,
            etag: `"${createHash('sha256').update(templated).digest('base64url').slice(0, 22)}"`,
            contentType: contentTypeOf(urlPath),
            encoded: {},
            templated,
          });
          return;
        }
        const encoded: SiteFile['encoded'] = {};
        for (const [encoding, suffix] of [
          ['br', '.br'],
          ['gzip', '.gz'],
        ] as const) {
          if (present.has(urlPath + suffix)) {
            encoded[encoding] = {
              file: file + suffix,
              size: (await stat(file + suffix)).size,
            };
          }
        }
        index.set(urlPath, {
          file,
          size: info.size,
          modified: info.mtime,
          etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
          contentType: contentTypeOf(urlPath),
          encoded,
        });
      }),
  );
  return index;
}

function contentTypeOf(urlPath: string): string {
  const type = getMimeType(urlPath) ?? 'application/octet-stream';
  return /^text\/|javascript|json|xml|svg/.test(type) && !type.includes('charset')
    ? `${type}; charset=utf-8`
    : type;
}

/** The best encoding the client accepts among those we have, or undefined for identity. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: Partial<Record<'br' | 'gzip', unknown>>,
): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const quality = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, quality ? Number(quality.slice(2)) : 1);
  }
  const acceptance = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (available.br && acceptance('br') > 0) return 'br';
  if (available.gzip && acceptance('gzip') > 0) return 'gzip';
  return undefined;
}

function parseRange(
  header: string,
  size: number,
): { start: number; end: number } | 'invalid' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // ignore what we do not understand
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

function isNotModified(c: Context, entry: SiteFile): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === entry.etag || tag === '*');
  }
  const ifModifiedSince = c.req.header('if-modified-since');
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(entry.modified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

async function readScriptHashes(siteDir: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(path.join(siteDir, '.csp.json'), 'utf8')) as {
      scriptHashes?: unknown;
    };
    return Array.isArray(parsed.scriptHashes)
      ? parsed.scriptHashes.filter((hash): hash is string =>
          /^sha256-[A-Za-z0-9+/=]+$/.test(String(hash)),
        )
      : [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function createStaticSite(options: StaticSiteOptions): Promise<StaticSite> {
  const [index, scriptHashes] = await Promise.all([
    indexSite(options.siteDir, options.siteUrl),
    readScriptHashes(options.siteDir),
  ]);
  const memory = new Map<string, Uint8Array<ArrayBuffer>>();
  const compressed = new Map<
    string,
    Promise<{ br: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> }>
  >();

  /** Compresses a templated file once, on its first request. */
  function compressedVariants(entry: SiteFile & { templated: Uint8Array<ArrayBuffer> }) {
    let variants = compressed.get(entry.file);
    if (!variants) {
      variants = Promise.all([
        brotliAsync(entry.templated, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: entry.size,
          },
        }),
        gzipAsync(entry.templated, { level: 9 }),
      ]).then(([br, gz]) => ({ br: new Uint8Array(br), gzip: new Uint8Array(gz) }));
      compressed.set(entry.file, variants);
    }
    return variants;
  }

  async function body(file: string, size: number, range?: { start: number; end: number }) {
    if (size <= MEMORY_CACHE_LIMIT) {
      let contents = memory.get(file);
      if (!contents) {
        contents = new Uint8Array(await readFile(file));
        memory.set(file, contents);
      }
      return range ? contents.subarray(range.start, range.end + 1) : contents;
    }
    const stream = createReadStream(file, range ? { start: range.start, end: range.end } : {});
    return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  }

  async function send(
    c: Context,
    entry: SiteFile,
    status: 200 | 404,
    cacheControl: string,
  ): Promise<Response> {
    const headers = new Headers({
      'Content-Type': entry.contentType,
      'Cache-Control': cacheControl,
      ETag: entry.etag,
      'Last-Modified': entry.modified.toUTCString(),
      Vary: 'Accept-Encoding',
    });
    const isHead = c.req.method === 'HEAD';
    if (status === 200 && isNotModified(c, entry))
      return new Response(null, { status: 304, headers });

    if (entry.templated) {
      const templated = entry.templated;
      const encoding = chooseEncoding(c.req.header('accept-encoding'), { br: true, gzip: true });
      const bytes = encoding
        ? (await compressedVariants({ ...entry, templated }))[encoding]
        : templated;
      if (encoding) headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(bytes.byteLength));
      return new Response(isHead ? null : bytes, { status, headers });
    }

    const encoding = chooseEncoding(c.req.header('accept-encoding'), entry.encoded);
    if (encoding) {
      const variant = entry.encoded[encoding]!;
      headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(variant.size));
      return new Response(isHead ? null : await body(variant.file, variant.size), {
        status,
        headers,
      });
    }

    headers.set('Accept-Ranges', 'bytes');
    const rangeHeader = c.req.header('range');
    const range = status === 200 && rangeHeader ? parseRange(rangeHeader, entry.size) : undefined;
    if (range === 'invalid') {
      headers.set('Content-Range', `bytes */${entry.size}`);
      return new Response(null, { status: 416, headers });
    }
    if (range) {
      headers.set('Content-Range', `bytes ${range.start}-${range.end}/${entry.size}`);
      headers.set('Content-Length', String(range.end - range.start + 1));
      return new Response(isHead ? null : await body(entry.file, entry.size, range), {
        status: 206,
        headers,
      });
    }
    headers.set('Content-Length', String(entry.size));
    return new Response(isHead ? null : await body(entry.file, entry.size), { status, headers });
  }

  function notBuilt(c: Context): Response {
    return c.text('The site has not been built yet: run `npm run build`.', 503, {
      'Cache-Control': REVALIDATE,
    });
  }

  return {
    isBuilt: index.has('/index.html'),
    scriptHashes,
    async handle(c) {
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(c.req.url).pathname);
      } catch {
        return c.text('Bad Request', 400);
      }
      if (pathname.includes('\0')) return c.text('Bad Request', 400);

      const asset = index.get(pathname);
      if (asset && !pathname.endsWith('.html')) {
        return send(c, asset, 200, pathname.startsWith('/assets/') ? IMMUTABLE : SHORT);
      }

      if (
        pathname.length > 1 &&
        pathname.endsWith('/') &&
        options.isRoute(pathname.replace(/\/+$/, ''))
      ) {
        const url = new URL(c.req.url);
        return c.redirect(`${pathname.replace(/\/+$/, '')}${url.search}`, 301);
      }

      const shell = index.get('/shell.html') ?? index.get('/index.html');
      if (options.isRoute(pathname)) {
        const page =
          index.get(pathname === '/' ? '/index.html' : `${pathname}/index.html`) ?? shell;
        return page ? send(c, page, 200, REVALIDATE) : notBuilt(c);
      }

      // Files and assets that do not exist get a short plain answer, pages get the not-found page.
      if (pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname)) {
        return c.text('Not Found', 404, { 'Cache-Control': REVALIDATE });
      }
      const notFoundPage = index.get('/404.html') ?? shell;
      return notFoundPage ? send(c, notFoundPage, 404, REVALIDATE) : notBuilt(c);
    },
  };
}
