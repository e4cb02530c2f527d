import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { DemoBookingButton } from '@/components/demo-booking/demo-booking-button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { hero } from '../content/hero';
import { HeroShapes } from './hero-shapes';
import { LiveCallCard } from './live-call-card';

/**
 * Stacked and centred below 1280 px; the laptop layout (1280–1920 px) puts the
 * live call beside the copy; wider screens get more room and larger type.
 */
export default function HeroSection() {
  return (
    <section
      aria-labelledby="hero-heading"
      className="relative overflow-hidden bg-ink-900 text-white"
    >
      <HeroShapes />
      <Container className="relative grid items-center gap-12 pt-28 pb-16 sm:pt-36 sm:pb-24 xl:grid-cols-[minmax(0,1.1fr)_minmax(0,0.9fr)] laptop:gap-14 laptop:pt-32 laptop:pb-20 wide:gap-24 wide:pt-44 wide:pb-32">
        <div className="text-center xl:text-left">
          <p className="inline-flex rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-ink-100 ring-1 ring-white/15">
            {hero.eyebrow}
          </p>
          <h1
            id="hero-heading"
            className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-5xl laptop:text-[3.4rem] laptop:leading-[1.08] wide:text-7xl"
          >
            {hero.headline}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-ink-100 sm:text-xl xl:mx-0 wide:text-2xl">
            {hero.lead}
          </p>
          <div className="mt-9 flex flex-col justify-center gap-3 sm:flex-row xl:justify-start">
            <DemoBookingButton size="lg" variant="bright" />
            <Link
              to={paths.talkToSales}
              className={buttonStyles({ size: 'lg', variant: 'outline' })}
            >
              {hero.secondaryAction}
            </Link>
          </div>
          <ul className="mt-8 flex flex-col items-center gap-2 text-sm text-ink-100 sm:flex-row sm:flex-wrap sm:justify-center sm:gap-x-6 xl:justify-start">
            {hero.proofPoints.map((point) => (
              <li key={point} className="flex items-center gap-2">
                <Check aria-hidden="true" className="size-4 text-mint-400" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <LiveCallCard />
      </Container>
    </section>
  );
}
