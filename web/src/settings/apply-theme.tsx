import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ThemeAnswer } from '../../../src/contract/settings-route.js';
import { themeQuery } from '../queries.js';
import './apply-theme.css';

/*
 * Puts theme.yaml in force on the whole board: the mode, surface, accent and density become data
 * attributes of <html>, which apply-theme.css turns into the board's colour variables. Mounted once
 * by the shell; Settings › Appearance writes through the same theme query, so a change shows
 * at once. "system" leaves the colours to the browser's own preference, as styles/base.css does.
 */
/** theme.yaml as the server answers it (undefined until it has): the board reads its options too. */
export function useTheme(): ThemeAnswer | undefined {
  return useQuery({ ...themeQuery(), staleTime: 60_000 }).data;
}

export function ThemeApplier() {
  const t = useTheme();
  useEffect(() => {
    if (!t) return;
    const d = document.documentElement.dataset;
    d.theme = t.mode;
    d.surface = t.surface;
    d.accent = t.accent;
    d.density = t.density;
  }, [t]);
  return null;
}
