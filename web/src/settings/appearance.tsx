import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ThemePutBody } from '../../../src/contract/settings-route.js';
import { callRoute, routes } from '../api.js';
import { themeQuery } from '../queries.js';

/*
 * Settings › Appearance: theme.yaml through its GET and PUT. Each choice is saved as it is made;
 * the theme query it updates is the one the shell's ThemeApplier reads, so the board changes at once.
 */

const MODES = ['system', 'light', 'dark'] as const;
const SURFACES = ['neutral', 'warm', 'cool'] as const;
const ACCENTS = ['indigo', 'rose', 'green', 'amber', 'slate', 'blue', 'teal', 'violet'] as const;
const DENSITIES = ['comfortable', 'compact'] as const;
const GROUPS = ['status', 'repo', 'chain'] as const;
const OPEN_IN = ['peek', 'full'] as const;

export function AppearancePage() {
  const client = useQueryClient();
  const q = useQuery(themeQuery());
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (q.error)
    return (
      <p className="banner error" role="alert">
        {q.error.message}
      </p>
    );
  const t = q.data;
  if (!t) return <p className="muted">Loading appearance…</p>;

  async function save(body: ThemePutBody) {
    setError(null);
    setSaved(false);
    try {
      client.setQueryData(themeQuery().queryKey, await callRoute(routes.putTheme, { body }));
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <div className="settings-area">
      {t.problem && (
        <p className="banner error" role="alert">
          theme.yaml does not load, so the defaults are shown: {t.problem}
        </p>
      )}
      <section className="settings-card" aria-labelledby="theme-h">
        <h2 id="theme-h">Theme</h2>
        <div className="fields">
          <Choice label="Mode" value={t.mode} options={MODES} onChange={(mode) => void save({ mode })} />
          <Choice
            label="Surface"
            value={t.surface}
            options={SURFACES}
            onChange={(surface) => void save({ surface })}
          />
          <Choice
            label="Accent"
            value={t.accent}
            options={ACCENTS}
            onChange={(accent) => void save({ accent })}
          />
          <Choice
            label="Density"
            value={t.density}
            options={DENSITIES}
            onChange={(density) => void save({ density })}
          />
          <label>
            Colour amount ({t.colour_amount}%)
            <input
              type="range"
              min={0}
              max={100}
              step={10}
              defaultValue={t.colour_amount}
              onPointerUp={(e) => void save({ colour_amount: Number(e.currentTarget.value) })}
              onKeyUp={(e) => void save({ colour_amount: Number(e.currentTarget.value) })}
            />
          </label>
        </div>
      </section>
      <section className="settings-card" aria-labelledby="boardopts-h">
        <h2 id="boardopts-h">Board options</h2>
        <div className="fields">
          <Choice
            label="Group by"
            value={t.board.group_by}
            options={GROUPS}
            onChange={(group_by) => void save({ board: { group_by } })}
          />
          <Choice
            label="Open items in"
            value={t.board.open_in}
            options={OPEN_IN}
            names={{ peek: 'the side panel (Peek)', full: 'the full page' }}
            onChange={(open_in) => void save({ board: { open_in } })}
          />
          <label>
            Done items shown
            <input
              type="number"
              min={0}
              defaultValue={t.board.show_done}
              onBlur={(e) => {
                const n = Number(e.target.value);
                if (n !== t.board.show_done) void save({ board: { show_done: n } });
              }}
            />
          </label>
        </div>
      </section>
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
      {saved && <p role="status">Saved to theme.yaml.</p>}
    </div>
  );
}

function Choice<T extends string>({
  label,
  value,
  options,
  names,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly T[];
  names?: Partial<Record<T, string>>;
  onChange: (v: T) => void;
}) {
  return (
    <label>
      {label}
      <select
        value={value}
        onChange={(e) => {
          const v = options.find((o) => o === e.target.value);
          if (v) onChange(v);
        }}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {names?.[o] ?? o}
          </option>
        ))}
      </select>
    </label>
  );
}
