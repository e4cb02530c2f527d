import { DEFAULT_SOCIAL_IMAGE, type PageMeta } from '@/config/page-meta';
import { site } from '@/config/site';

/**
 * The head of a page, from its metadata: written into the prerendered HTML at
 * build time (with the site URL as a placeholder the server fills in) and
 * applied to the live document on client-side navigation.
 */

interface Tag {
  kind: 'meta-name' | 'meta-property' | 'link';
  key: string;
  value: string;
}

export function headTags(meta: PageMeta, siteUrl: string): Tag[] {
  const url = `${siteUrl}${meta.path === '/' ? '/' : meta.path}`;
  const image = `${siteUrl}${meta.image ?? DEFAULT_SOCIAL_IMAGE}`;
  return [
    { kind: 'meta-name', key: 'description', value: meta.description },
    { kind: 'meta-name', key: 'robots', value: meta.isIndexed ? 'index, follow' : 'noindex' },
    { kind: 'link', key: 'canonical', value: url },
    { kind: 'meta-property', key: 'og:type', value: 'website' },
    { kind: 'meta-property', key: 'og:site_name', value: site.name },
    { kind: 'meta-property', key: 'og:title', value: meta.title },
    { kind: 'meta-property', key: 'og:description', value: meta.description },
    { kind: 'meta-property', key: 'og:url', value: url },
    { kind: 'meta-property', key: 'og:image', value: image },
    { kind: 'meta-property', key: 'og:image:width', value: '1200' },
    { kind: 'meta-property', key: 'og:image:height', value: '630' },
    { kind: 'meta-name', key: 'twitter:card', value: 'summary_large_image' },
    { kind: 'meta-name', key: 'twitter:title', value: meta.title },
    { kind: 'meta-name', key: 'twitter:description', value: meta.description },
    { kind: 'meta-name', key: 'twitter:image', value: image },
  ];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The head as HTML, for the prerendered page, with schema.org objects as
 * JSON-LD (escaped so they cannot close their script element).
 */
export function renderHead(meta: PageMeta, siteUrl: string, structuredData: object[] = []): string {
  const lines = [`<title>${escapeHtml(meta.title)}</title>`];
  for (const tag of headTags(meta, siteUrl)) {
    const value = escapeHtml(tag.value);
    if (tag.kind === 'link') lines.push(`<link rel="${tag.key}" href="${value}" />`);
    else {
      const attribute = tag.kind === 'meta-name' ? 'name' : 'property';
      lines.push(`<meta ${attribute}="${tag.key}" content="${value}" />`);
    }
  }
  for (const item of structuredData) {
    const json = JSON.stringify(item).replace(/</g, '\\u003c');
    lines.push(`<script type="application/ld+json">${json}</script>`);
  }
  return lines.join('\n    ');
}

/** Brings the live document's head in line with the page after a client-side navigation. */
export function applyHead(meta: PageMeta, siteUrl: string): void {
  document.title = meta.title;
  for (const tag of headTags(meta, siteUrl)) {
    if (tag.kind === 'link') {
      let link = document.head.querySelector<HTMLLinkElement>(`link[rel="${tag.key}"]`);
      if (!link) {
        link = document.createElement('link');
        link.rel = tag.key;
        document.head.append(link);
      }
      link.href = tag.value;
      continue;
    }
    const attribute = tag.kind === 'meta-name' ? 'name' : 'property';
    let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${tag.key}"]`);
    if (!element) {
      element = document.createElement('meta');
      element.setAttribute(attribute, tag.key);
      document.head.append(element);
    }
    element.content = tag.value;
  }
}
