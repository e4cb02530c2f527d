import { site } from '@/config/site';
import { hero } from './content/hero';
import { whyCervana } from './content/why-cervana';

/** schema.org data for the landing page: the company, the product, and the FAQ it answers. */
export function landingStructuredData(siteUrl: string): object[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${siteUrl}/#organization`,
    name: site.name,
    legalName: site.legalName,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/favicon.svg`,
    email: site.contactEmail,
    telephone: site.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: '548 Market Street, Suite 91720',
      addressLocality: 'San Francisco',
      addressRegion: 'CA',
      postalCode: '94104',
      addressCountry: 'US',
    },
  };
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `${site.name} AI phone agent`,
    description: hero.lead,
    category: 'Customer success software',
    brand: { '@id': `${siteUrl}/#organization` },
    url: `${siteUrl}/`,
    image: `${siteUrl}/og-image.png`,
  };
  const faq = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: whyCervana.faq.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
  return [organization, product, faq];
}
