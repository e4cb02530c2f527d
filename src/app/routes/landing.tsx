import type { ReactNode } from 'react';
import { LazySection, type SectionLoader } from '@/components/layout/lazy-section';
import { SectionSkeleton } from '@/components/ui/skeleton';
import { sectionIds } from '@/config/site';

interface LandingSection {
  name: string;
  id?: string;
  loader: SectionLoader;
  /** The section's height at each breakpoint, held by the skeleton. */
  height: string;
  tone?: 'light' | 'dark';
}

/**
 * Sections below the hero skip layout and paint until they come near the
 * viewport (content-visibility), which keeps the first load's main thread
 * short; their content stays in the accessibility tree and in find-in-page.
 */
const DEFERRED_RENDERING = '[content-visibility:auto] [contain-intrinsic-size:auto_900px]';

/** Skeletons made once, so sections' props never change (see LazySection). */
const skeletons = new Map<string, ReactNode>();
function skeletonFor(section: LandingSection): ReactNode {
  let skeleton = skeletons.get(section.name);
  if (!skeleton) {
    skeleton = <SectionSkeleton className={section.height} tone={section.tone} />;
    skeletons.set(section.name, skeleton);
  }
  return skeleton;
}

/** The spec's sections, in its order; the footer (the tenth) comes from the layout. */
export const landingSections: LandingSection[] = [
  {
    name: 'hero',
    loader: () => import('@/features/marketing/components/hero-section'),
    height: 'min-h-[1180px] sm:min-h-[1100px] xl:min-h-[760px]',
    tone: 'dark',
  },
  {
    name: 'cost-savings',
    loader: () => import('@/features/marketing/components/cost-savings-section'),
    height: 'min-h-[2300px] md:min-h-[1700px] lg:min-h-[1350px]',
  },
  {
    name: 'how-it-works',
    id: sectionIds.howItWorks,
    loader: () => import('@/features/marketing/components/how-it-works-section'),
    height: 'min-h-[1500px] md:min-h-[1050px] xl:min-h-[760px]',
  },
  {
    name: 'industries',
    id: sectionIds.industries,
    loader: () => import('@/features/marketing/components/industries-section'),
    height: 'min-h-[1350px] lg:min-h-[820px]',
  },
  {
    name: 'audio-demo',
    id: sectionIds.audioDemo,
    loader: () => import('@/features/marketing/components/audio-demo-section'),
    height: 'min-h-[1300px] lg:min-h-[900px]',
    tone: 'dark',
  },
  {
    name: 'use-cases',
    loader: () => import('@/features/marketing/components/use-case-carousel-section'),
    height: 'min-h-[960px] md:min-h-[820px]',
  },
  {
    name: 'why-cervana',
    id: sectionIds.whyCervana,
    loader: () => import('@/features/marketing/components/why-cervana-section'),
    height: 'min-h-[2500px] lg:min-h-[1650px]',
  },
  {
    name: 'partner-cta',
    loader: () => import('@/features/marketing/components/partner-cta-section'),
    height: 'min-h-[760px] lg:min-h-[520px]',
  },
  {
    name: 'social-proof',
    loader: () => import('@/features/marketing/components/social-proof-section'),
    height: 'min-h-[1150px] sm:min-h-[700px] lg:min-h-[500px]',
  },
];

export function LandingPage() {
  return (
    <main>
      {landingSections.map((section) => (
        <LazySection
          key={section.name}
          name={section.name}
          className={section.name === 'hero' ? undefined : DEFERRED_RENDERING}
          id={section.id}
          loader={section.loader}
          skeleton={skeletonFor(section)}
        />
      ))}
    </main>
  );
}
