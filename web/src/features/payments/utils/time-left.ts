// "expires in 23 h 59 min": the countdown beside a payment waiting for approval. Units are
// floored, so the label never promises more time than is left.

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Under this, the countdown is shown as urgent. */
const URGENT_MS = HOUR;

export interface TimeLeft {
  /** 'expires in 23 h 59 min', 'expires in 42 s', 'expired'. */
  label: string;
  expired: boolean;
  urgent: boolean;
  /** Milliseconds until the label reads differently (0 once expired). */
  changesIn: number;
}

export function timeLeft(expiresAt: string, now: number): TimeLeft {
  const left = Date.parse(expiresAt) - now;
  if (Number.isNaN(left) || left <= 0) return { label: 'expired', expired: true, urgent: true, changesIn: 0 };
  return { label: `expires in ${durationText(left)}`, expired: false, urgent: left < URGENT_MS, changesIn: msUntilNextStep(left) };
}

/** 89_000 ms -> '1 min'; 3_599_000 -> '59 min'; 86_340_000 -> '23 h 59 min'; 90_000_000 -> '1 d 1 h'. */
export function durationText(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) {
    const hours = Math.floor(ms / HOUR);
    const minutes = Math.floor((ms % HOUR) / MINUTE);
    return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  }
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  return hours ? `${days} d ${hours} h` : `${days} d`;
}

/** The finest unit shown for `ms` left, and how long until that unit ticks down. */
function msUntilNextStep(ms: number): number {
  const unit = ms < MINUTE ? SECOND : ms < DAY ? MINUTE : HOUR;
  return ms % unit || unit;
}
