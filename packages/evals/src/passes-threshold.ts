/**
 * Whether `passedRuns` of `runs` reach `threshold` (a share from 0 to 1): `passedRuns` must be at least
 * `threshold × runs` rounded up, computed so that float error cannot ask for one run more
 * (`0.56 × 25` is `14.000000000000002` in floating point, and 14 of 25 runs pass 0.56).
 */
export function passesThreshold(passedRuns: number, runs: number, threshold: number): boolean {
  return passedRuns >= Math.ceil(threshold * runs - 1e-9);
}
