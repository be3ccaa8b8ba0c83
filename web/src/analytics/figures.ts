/** Dollars as the screen shows them: cents, or four places under a dollar (agent runs are cheap). */
export function usd(n: number): string {
  if (n === 0) return '$0.00';
  return Math.abs(n) < 1 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

/** 1234567 → "1.2M", 12345 → "12.3k". */
export function count(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** Seconds as "42 s", "3 min", "2.5 h". */
export function duration(s: number): string {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function percent(r: number | null): string {
  return r === null ? '—' : `${Math.round(r * 100)}%`;
}

/** A UTC day (YYYY-MM-DD) `days` before `from`. */
export function dayBefore(from: Date, days: number): string {
  return new Date(from.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
