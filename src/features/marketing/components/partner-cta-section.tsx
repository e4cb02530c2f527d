import { ArrowRight, Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/ui/button-styles';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { partnerCta } from '../content/partner-cta';

export default function PartnerCtaSection() {
  return (
    <section aria-labelledby="partner-cta-heading" className="bg-white py-20 sm:py-24">
      <Container>
        <div className="relative overflow-hidden rounded-[2rem] bg-azure-800 px-6 py-12 text-white sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute -top-20 -right-20 size-72 rounded-full border-[36px] border-white/10"
          />
          <div className="relative grid gap-10 lg:grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)] lg:items-center">
            <div>
              <p className="text-sm font-semibold tracking-wide text-azure-100 uppercase">
                {partnerCta.eyebrow}
              </p>
              <h2
                id="partner-cta-heading"
                className="mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl"
              >
                {partnerCta.heading}
              </h2>
              <p className="mt-4 text-lg text-azure-50">{partnerCta.lead}</p>
            </div>
            <div>
              <ul className="space-y-3">
                {partnerCta.points.map((point) => (
                  <li key={point} className="flex items-center gap-3 font-medium">
                    <Check aria-hidden="true" className="size-5 shrink-0 text-mint-400" />
                    {point}
                  </li>
                ))}
              </ul>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
                <Link
                  to={paths.partner}
                  className={buttonStyles({ size: 'lg', variant: 'secondary' })}
                >
                  {partnerCta.primaryAction}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
                <Link
                  to={paths.partnerPortal}
                  className={buttonStyles({ size: 'lg', variant: 'outline' })}
                >
                  {partnerCta.secondaryAction}
                </Link>
              </div>
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
