import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptSegment } from '../api/call-detail';
import { Transcript } from './transcript';

const segments: TranscriptSegment[] = Array.from({ length: 8 }, (_, index) => ({
  speaker: index % 2 === 0 ? 'agent' : 'caller',
  start_ms: index * 5000 + 250,
  end_ms: index * 5000 + 4500,
  text: `Line ${index + 1}`,
}));

const list = () => screen.getByRole('list', { name: 'Transcript lines' });
const lines = () => within(list()).getAllByRole('listitem');

/**
 * Lays the transcript out as a browser would (jsdom has no layout): a box
 * 100 px high showing lines of 40 px, scrolled by `scrollTop`.
 */
function layOut() {
  const box = list();
  let scrollTop = 0;
  Object.defineProperty(box, 'scrollTop', {
    get: () => scrollTop,
    set: (value: number) => (scrollTop = value),
    configurable: true,
  });
  const scrollTo = vi.fn(({ top }: { top: number }) => {
    scrollTop = top;
    box.dispatchEvent(new Event('scroll'));
  });
  box.scrollTo = scrollTo as unknown as typeof box.scrollTo;
  box.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 300, height: 100 });
  lines().forEach((line, index) => {
    line.getBoundingClientRect = () =>
      DOMRect.fromRect({ x: 0, y: index * 40 - scrollTop, width: 300, height: 40 });
  });
  return {
    scrollTo,
    userScrollsTo(top: number) {
      scrollTop = top;
      fireEvent.scroll(box);
    },
  };
}

describe('the transcript', () => {
  it('labels the speakers and shows when each line starts, as m:ss', () => {
    render(<Transcript segments={segments} activeIndex={-1} onPlayFrom={() => undefined} />);
    const first = within(lines()[0]!).getByRole('button');
    expect(first).toHaveTextContent('Agent');
    expect(first).toHaveTextContent('0:00');
    expect(within(lines()[1]!).getByRole('button')).toHaveTextContent(/Caller\s*0:05\s*Line 2/);
    expect(within(lines()[7]!).getByRole('button')).toHaveTextContent('0:35');
  });

  it('marks the line being spoken as the current one', () => {
    const { rerender } = render(
      <Transcript segments={segments} activeIndex={-1} onPlayFrom={() => undefined} />,
    );
    expect(list().querySelectorAll('[aria-current="true"]')).toHaveLength(0);
    rerender(<Transcript segments={segments} activeIndex={2} onPlayFrom={() => undefined} />);
    const current = list().querySelectorAll('[aria-current="true"]');
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveTextContent('Line 3');
  });

  it('plays from a line when it is clicked or chosen with Enter', async () => {
    const user = userEvent.setup();
    const onPlayFrom = vi.fn();
    render(<Transcript segments={segments} activeIndex={-1} onPlayFrom={onPlayFrom} />);
    await user.click(screen.getByRole('button', { name: /Line 4/ }));
    expect(onPlayFrom).toHaveBeenLastCalledWith(15.25);
    screen.getByRole('button', { name: /Line 2/ }).focus();
    await user.keyboard('{Enter}');
    expect(onPlayFrom).toHaveBeenLastCalledWith(5.25);
    expect(onPlayFrom).toHaveBeenCalledTimes(2);
  });

  it('without a recording, shows the lines as text the keyboard can still scroll', () => {
    render(<Transcript segments={segments} activeIndex={-1} />);
    expect(within(list()).queryAllByRole('button')).toHaveLength(0);
    expect(list()).toHaveAttribute('tabindex', '0');
    expect(list()).toHaveTextContent('Line 8');
  });

  it('says so when there is no transcript', () => {
    render(<Transcript segments={[]} activeIndex={-1} />);
    expect(screen.getByText('No transcript for this call.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('keeps the current line in view while the reader follows, and not while they read elsewhere', async () => {
    const user = userEvent.setup();
    const onPlayFrom = () => undefined;
    const { rerender } = render(
      <Transcript segments={segments} activeIndex={0} onPlayFrom={onPlayFrom} />,
    );
    const box = layOut();

    // Line 2 is in view: nothing moves. Line 5 (160 px down) is not: the box scrolls to it.
    rerender(<Transcript segments={segments} activeIndex={1} onPlayFrom={onPlayFrom} />);
    expect(box.scrollTo).not.toHaveBeenCalled();
    rerender(<Transcript segments={segments} activeIndex={4} onPlayFrom={onPlayFrom} />);
    expect(box.scrollTo).toHaveBeenCalledTimes(1);
    expect(box.scrollTo).toHaveBeenLastCalledWith({ top: 144 });
    expect(screen.queryByRole('button', { name: 'Back to the current line' })).toBeNull();

    // The reader scrolls back to the top to read: the box stays where they put it.
    box.userScrollsTo(0);
    const back = await screen.findByRole('button', { name: 'Back to the current line' });
    rerender(<Transcript segments={segments} activeIndex={5} onPlayFrom={onPlayFrom} />);
    expect(box.scrollTo).toHaveBeenCalledTimes(1);

    // Asked to, it follows again, from the line now being spoken.
    await user.click(back);
    expect(box.scrollTo).toHaveBeenCalledTimes(2);
    expect(box.scrollTo).toHaveBeenLastCalledWith({ top: 184 });
    expect(screen.queryByRole('button', { name: 'Back to the current line' })).toBeNull();
  });

  it('follows again once the reader scrolls the current line back into view', async () => {
    const onPlayFrom = () => undefined;
    const { rerender } = render(
      <Transcript segments={segments} activeIndex={6} onPlayFrom={onPlayFrom} />,
    );
    const box = layOut();
    box.userScrollsTo(0);
    expect(
      await screen.findByRole('button', { name: 'Back to the current line' }),
    ).toBeInTheDocument();
    box.userScrollsTo(200); // line 7 (240-280 px) shows again
    expect(screen.queryByRole('button', { name: 'Back to the current line' })).toBeNull();
    rerender(<Transcript segments={segments} activeIndex={7} onPlayFrom={onPlayFrom} />);
    expect(box.scrollTo).toHaveBeenLastCalledWith({ top: 264 });
  });
});
