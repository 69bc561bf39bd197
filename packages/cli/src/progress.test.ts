import { Progress } from './progress';

function target(isTTY: boolean): { lines: string[]; write: (text: string) => void; isTTY: boolean } {
  const lines: string[] = [];
  return { lines, write: (text: string) => void lines.push(text), isTTY };
}

describe('Progress', () => {
  it('redraws one line on a terminal, throttled, and clears it before the summary', () => {
    let now = 0;
    const out = target(true);
    const progress = new Progress(out, 200, () => now);
    progress.step('Building');
    progress.tick('1 files read');
    now = 250;
    progress.tick('40 files read');
    now = 300;
    progress.tick('41 files read');
    now = 1500;
    progress.done('900 files read');
    expect(out.lines).toEqual(['Building…\n', '\r\x1b[2K  40 files read (0.3s)', '\r\x1b[2K', '  900 files read (1.5s)\n']);
  });

  it('prints an occasional plain line when not a terminal', () => {
    let now = 0;
    const out = target(false);
    const progress = new Progress(out, 200, () => now);
    progress.step('Building');
    now = 1000;
    progress.tick('10 files read');
    now = 2100;
    progress.tick('20 files read');
    progress.done('done');
    expect(out.lines).toEqual(['Building…\n', '  20 files read (2.1s)\n', '  done (2.1s)\n']);
  });
});
