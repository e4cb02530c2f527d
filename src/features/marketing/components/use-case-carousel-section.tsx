import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { useCases, useCasesContent } from '../content/use-cases';

/**
 * Cards on a scroll-snap track: swipe or scroll natively, arrow keys or the
 * buttons move one card. The position is announced politely.
 */
export default function UseCaseCarouselSection() {
  const track = useRef<HTMLUListElement>(null);
  const [current, setCurrent] = useState(0);

  /**
   * Where a move by key or button is heading. Until the track gets there, the
   * scroll events of the animation (which pass the cards in between) do not
   * move the position, so it never counts a card the visitor did not choose.
   */
  const heading = useRef<{ left: number; until: number } | null>(null);

  useEffect(() => {
    const element = track.current;
    if (!element) return;
    let frame = 0;
    const settle = () => {
      const slides = Array.from(element.children) as HTMLElement[];
      const left = element.scrollLeft;
      const atEnd = left + element.clientWidth >= element.scrollWidth - 4;
      const target = heading.current;
      if (target) {
        const arrived = Math.abs(target.left - left) <= 4 || (atEnd && target.left > left);
        if (!arrived && performance.now() < target.until) return;
        heading.current = null;
      }
      const nearest = slides.reduce(
        (best, slide, index) =>
          Math.abs(slide.offsetLeft - element.offsetLeft - left) <
          Math.abs((slides[best]?.offsetLeft ?? 0) - element.offsetLeft - left)
            ? index
            : best,
        0,
      );
      setCurrent(atEnd ? slides.length - 1 : nearest);
    };
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(settle);
    };
    // A swipe that interrupts a move ends it: the position follows the swipe.
    const onScrollEnd = () => {
      heading.current = null;
      onScroll();
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    element.addEventListener('scrollend', onScrollEnd, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      element.removeEventListener('scrollend', onScrollEnd);
      cancelAnimationFrame(frame);
    };
  }, []);

  function goTo(index: number) {
    const element = track.current;
    const target = Math.max(0, Math.min(useCases.length - 1, index));
    const slide = element?.children[target] as HTMLElement | undefined;
    if (!element || !slide) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const left = slide.offsetLeft - element.offsetLeft;
    heading.current = { left, until: performance.now() + 1500 };
    element.scrollTo({ left, behavior: reduce ? 'auto' : 'smooth' });
    setCurrent(target);
  }

  function handleKeyDown(event: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key === 'Home') goTo(0);
    else if (event.key === 'End') goTo(useCases.length - 1);
    else if (event.key in moves) goTo(current + moves[event.key]!);
    else return;
    event.preventDefault();
  }

  const arrow =
    'inline-flex size-11 items-center justify-center rounded-full bg-white text-ink-900 ring-1 ring-sand-200 transition-colors hover:bg-sand-100 disabled:opacity-40';
  return (
    <section
      aria-labelledby="use-cases-heading"
      className="overflow-hidden bg-white py-20 sm:py-28"
    >
      <Container>
        <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
          <SectionHeading
            id="use-cases-heading"
            eyebrow={useCasesContent.eyebrow}
            heading={useCasesContent.heading}
            lead={useCasesContent.lead}
          />
          <div className="flex shrink-0 items-center gap-3">
            <p
              aria-live="polite"
              className="min-w-16 text-sm font-medium text-ink-600 tabular-nums"
              data-testid="carousel-position"
            >
              {current + 1} of {useCases.length}
            </p>
            <button
              type="button"
              className={arrow}
              onClick={() => goTo(current - 1)}
              disabled={current === 0}
            >
              <ChevronLeft aria-hidden="true" className="size-5" />
              <span className="sr-only">Previous use case</span>
            </button>
            <button
              type="button"
              className={arrow}
              onClick={() => goTo(current + 1)}
              disabled={current === useCases.length - 1}
            >
              <ChevronRight aria-hidden="true" className="size-5" />
              <span className="sr-only">Next use case</span>
            </button>
          </div>
        </div>
        <div role="region" aria-roledescription="carousel" aria-label="Use cases" className="mt-10">
          <ul
            ref={track}
            tabIndex={0}
            onKeyDown={handleKeyDown}
            aria-label="Use cases: use the arrow keys to move between cards"
            className="-mx-5 flex snap-x snap-mandatory gap-5 overflow-x-auto scroll-px-5 px-5 pb-4 [scrollbar-width:none] sm:-mx-8 sm:scroll-px-8 sm:px-8"
          >
            {useCases.map((useCase, index) => (
              <li
                key={useCase.id}
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${useCases.length}: ${useCase.title}`}
                className="flex w-[85%] shrink-0 snap-start flex-col rounded-3xl bg-ink-900 p-7 text-white sm:w-[46%] lg:w-[31.5%]"
              >
                <h3 className="text-xl font-semibold">{useCase.title}</h3>
                <p className="mt-4 text-ink-100">{useCase.trigger}</p>
                <p className="mt-4 flex-1 text-white">{useCase.handling}</p>
                <p className="mt-6 border-t border-white/10 pt-4 text-sm font-semibold text-mint-400">
                  {useCase.result}
                </p>
                <p className="mt-1 text-sm text-ink-300">{useCase.resolutionNote}</p>
              </li>
            ))}
          </ul>
        </div>
      </Container>
    </section>
  );
}
