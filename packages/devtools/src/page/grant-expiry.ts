/**
 * The `expiresAt` of an "always allow" whose expiry the person typed in minutes (`text`, fractions
 * allowed) from `now`: a whole number of ms since the epoch, as a grant's must be (`undefined` for an
 * empty text: never), or what is wrong with the text.
 */
export function grantExpiry(text: string, now: number): number | undefined | string {
  if (text.trim() === '') return undefined;
  const minutes = Number(text);
  if (!(Number.isFinite(minutes) && minutes > 0)) return 'The expiry must be a number of minutes above 0, or empty for never.';
  const expiresAt = now + Math.round(minutes * 60_000);
  if (!Number.isSafeInteger(expiresAt)) return `${text.trim()} minutes is too far away: give fewer minutes, or none for never.`;
  return expiresAt;
}
