import { passesThreshold } from './passes-threshold';

describe('passesThreshold', () => {
  it.each([
    [14, 25, 0.56],
    [7, 100, 0.07],
    [7, 50, 0.14],
    [7, 25, 0.28],
    [51, 75, 0.68],
    [2, 3, 2 / 3],
    [3, 3, 1],
    [0, 5, 0],
  ])('%i of %i runs pass threshold %d (float error does not ask for one more run)', (passed, runs, threshold) => {
    expect(passesThreshold(passed, runs, threshold)).toBe(true);
  });

  it.each([
    [13, 25, 0.56],
    [6, 100, 0.07],
    [1, 3, 2 / 3],
    [2, 3, 1],
    [1, 5, 0.21],
  ])('%i of %i runs do not pass threshold %d', (passed, runs, threshold) => {
    expect(passesThreshold(passed, runs, threshold)).toBe(false);
  });
});
